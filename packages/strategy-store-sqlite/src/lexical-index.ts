import type Database from "better-sqlite3";
import {
  indexedForm,
  maxScoreTop,
  queryTerms,
  rankedFieldsFromRow,
  readIndexedForm,
  termsFromText,
} from "@x/strategy-store-core/backend";
import type { TermSet } from "@x/strategy-store-core/backend";
import type { DocumentTerms, LexicalCandidate, RankedFields, TermPostings } from "@x/strategy-store-core/backend";
import {
  BLOCK_POSTINGS,
  decodeBlock,
  encodeBlock,
  locate,
  sliceBlock,
  withoutPosting,
  withPosting,
} from "./posting-block";
import type { PostingBlock } from "./posting-block";
import type { StrategyRow } from "./rows";

/** The row's index form as the `indexed` column keeps it (JSON text). */
export function encodeIndexed(terms: DocumentTerms): string {
  return JSON.stringify(indexedForm(terms));
}

/** A candidate's light form: what ranking reads, and the row to read in full if it wins. */
export type RankedRow = RankedFields & { seq: number };

/** The columns a light candidate is read from. */
export const RANKED_COLUMNS = "seq, id, confidence, updated_at, uses, successes, terms";

/** A light candidate from a row holding {@link RANKED_COLUMNS}. */
export function rankedRow(row: Pick<StrategyRow, "seq" | "terms">): { record: RankedRow; terms: TermSet } {
  return { record: { ...rankedFieldsFromRow(row), seq: row.seq }, terms: termsFromText(row.terms) };
}

/**
 * `start` of a term's totals row: after every block's, so it sits beside the newest block, in the
 * page an append rewrites anyway. No `seq` reaches it.
 */
export const TOTALS_START = Number.MAX_SAFE_INTEGER;

/**
 * The scope-local inverted index: per (scope, term), postings in blocks of at most
 * {@link BLOCK_POSTINGS} keyed by the lowest `seq` they cover, and a totals row (documents holding
 * the term, best impact); per scope, documents and summed field lengths. All written in the
 * caller's transaction. A search reads the totals, then ranks with core's exact MaxScore: it scans
 * the blocks of the terms that can bring new documents and looks the rest up by `seq`.
 */
export class SqliteLexicalIndex {
  private readonly statements;

  constructor(db: Database.Database) {
    this.statements = {
      scopeId: db.prepare<[string], { scope_id: number }>("SELECT scope_id FROM strategy_scopes WHERE scope = ?"),
      newScope: db.prepare<[string]>("INSERT INTO strategy_scopes (scope) VALUES (?)"),
      totals: db.prepare<[string], ScopeTotalsRow>(
        `SELECT scope_id, documents, problem_length, strategy_length, tags_length FROM strategy_scopes WHERE scope = ?`,
      ),
      adjustTotals: db.prepare<[number, number, number, number, number]>(
        `UPDATE strategy_scopes SET documents = documents + ?, problem_length = problem_length + ?,
           strategy_length = strategy_length + ?, tags_length = tags_length + ? WHERE scope_id = ?`,
      ),
      term: db.prepare<[number, string], { documents: number; best: number }>(
        `SELECT documents, best FROM strategy_blocks WHERE scope_id = ? AND term = ? AND start = ${TOTALS_START}`,
      ),
      // An update by the full key, then an insert only for a term new to the scope: one B-tree
      // descent in the usual case, where an upsert makes two.
      addToTerm: db.prepare<[number, number, string]>(
        `UPDATE strategy_blocks SET documents = documents + 1, best = max(best, ?)
         WHERE scope_id = ? AND term = ? AND start = ${TOTALS_START}`,
      ),
      newTerm: db.prepare<[number, string, number]>(
        `INSERT INTO strategy_blocks (scope_id, term, start, documents, best, postings)
         VALUES (?, ?, ${TOTALS_START}, 1, ?, x'')`,
      ),
      takeFromTerm: db.prepare<[number, string]>(
        `UPDATE strategy_blocks SET documents = documents - 1
         WHERE scope_id = ? AND term = ? AND start = ${TOTALS_START}`,
      ),
      pruneTerm: db.prepare<[number, string]>(
        `DELETE FROM strategy_blocks WHERE scope_id = ? AND term = ? AND start = ${TOTALS_START} AND documents <= 0`,
      ),
      blocks: db
        .prepare<[number, string], Buffer>(
          `SELECT postings FROM strategy_blocks WHERE scope_id = ? AND term = ? AND start < ${TOTALS_START}
         ORDER BY start`,
        )
        .pluck(),
      covering: db.prepare<[number, string, number], BlockRow>(
        `SELECT start, best, postings FROM strategy_blocks WHERE scope_id = ? AND term = ? AND start <= ?
         ORDER BY start DESC LIMIT 1`,
      ),
      insertBlock: db.prepare<[number, string, number, number, number, Buffer]>(
        "INSERT INTO strategy_blocks (scope_id, term, start, documents, best, postings) VALUES (?, ?, ?, ?, ?, ?)",
      ),
      updateBlock: db.prepare<[number, number, Buffer, number, string, number]>(
        `UPDATE strategy_blocks SET documents = ?, best = ?, postings = ?
         WHERE scope_id = ? AND term = ? AND start = ?`,
      ),
      // The pool's rows in one statement, not one per candidate.
      ranked: db.prepare<[string], StrategyRow>(
        `SELECT ${RANKED_COLUMNS} FROM strategies WHERE seq IN (SELECT value FROM json_each(?))`,
      ),
      dropBlock: db.prepare<[number, string, number]>(
        "DELETE FROM strategy_blocks WHERE scope_id = ? AND term = ? AND start = ?",
      ),
    };
  }

  /** The scope's id, creating its statistics row on first write. */
  scopeForWrite(scope: string): number {
    const found = this.statements.scopeId.get(scope);
    if (found) return found.scope_id;
    return Number(this.statements.newScope.run(scope).lastInsertRowid);
  }

  add(scopeId: number, seq: number, terms: DocumentTerms): void {
    const [p, s, t] = terms.lengths;
    for (const posting of terms.postings) {
      const row = this.statements.covering.get(scopeId, posting.term, seq);
      const block = row ? decodeBlock(row.postings) : EMPTY;
      const best = Math.max(row?.best ?? 0, posting.impact);
      const appended = row !== undefined && block.seqs.length >= BLOCK_POSTINGS && seq > block.seqs.at(-1)!;
      if (!row || appended) {
        // A new record's seq is above every other: a full newest block stays full, the posting starts the next.
        const fresh = withPosting(EMPTY, seq, posting.counts, terms.lengths);
        this.statements.insertBlock.run(scopeId, posting.term, seq, 1, posting.impact, encodeBlock(fresh));
      } else {
        const grown = withPosting(block, seq, posting.counts, terms.lengths);
        // A rewritten record lands inside a block; a block past its size splits in halves, the upper
        // one keyed by its lowest seq.
        const half = grown.seqs.length > BLOCK_POSTINGS ? grown.seqs.length >>> 1 : grown.seqs.length;
        this.updateBlock(scopeId, posting.term, row.start, sliceBlock(grown, 0, half), best);
        if (half < grown.seqs.length) {
          const upper = sliceBlock(grown, half);
          this.statements.insertBlock.run(
            scopeId,
            posting.term,
            upper.seqs[0]!,
            upper.seqs.length,
            best,
            encodeBlock(upper),
          );
        }
      }
      if (this.statements.addToTerm.run(posting.impact, scopeId, posting.term).changes === 0) {
        this.statements.newTerm.run(scopeId, posting.term, posting.impact);
      }
    }
    this.statements.adjustTotals.run(1, p, s, t, scopeId);
  }

  /** Takes out what `add` wrote for the row; `indexed` is the row's stored form. */
  remove(scopeId: number, seq: number, indexed: string): void {
    const form = readIndexedForm(indexed);
    for (const [term] of form.terms) {
      const row = this.statements.covering.get(scopeId, term, seq);
      const block = row ? decodeBlock(row.postings) : EMPTY;
      const { at, found } = locate(block, seq);
      if (!row || !found) continue;
      if (block.seqs.length === 1) this.statements.dropBlock.run(scopeId, term, row.start);
      // The best impact stays as it was: still an upper bound, which is all a search needs of it.
      else this.updateBlock(scopeId, term, row.start, withoutPosting(block, at), row.best);
      this.statements.takeFromTerm.run(scopeId, term);
      this.statements.pruneTerm.run(scopeId, term);
    }
    const [p, s, t] = form.lengths;
    this.statements.adjustTotals.run(-1, -p, -s, -t, scopeId);
  }

  /** The `pool` best rows of the scope for `query`, light, with their BM25F scores; run inside a read transaction. */
  search(scope: string, query: string, pool: number): Array<LexicalCandidate<RankedRow>> {
    const totals = this.statements.totals.get(scope);
    if (!totals || totals.documents === 0) return [];
    const terms: TermPostings[] = [];
    for (const term of queryTerms(query)) {
      const found = this.statements.term.get(totals.scope_id, term);
      if (found && found.documents > 0) terms.push(this.postings(totals.scope_id, term, found));
    }
    const lengths = [totals.problem_length, totals.strategy_length, totals.tags_length] as const;
    const top = maxScoreTop(terms, { documents: totals.documents, lengths }, pool);
    const rows = new Map(this.statements.ranked.all(JSON.stringify(top.map((hit) => hit.seq))).map((r) => [r.seq, r]));
    return top.map(({ seq, score }) => ({ ...rankedRow(rows.get(seq)!), score }));
  }

  private postings(scopeId: number, term: string, totals: { documents: number; best: number }): TermPostings {
    const { blocks, covering } = this.statements;
    return {
      documents: totals.documents,
      bestImpact: totals.best,
      scan: () => blocks.all(scopeId, term).map(decodeBlock),
      lookup: (seqs) => {
        // Reading every block costs about what one lookup per block would: past that, scan.
        if (seqs.length >= totals.documents / BLOCK_POSTINGS) return blocks.all(scopeId, term).map(decodeBlock);
        const runs: PostingBlock[] = [];
        let start = -1;
        // Sequences come ascending: up to `covered`, the block last read holds whatever there is.
        let covered = -Infinity;
        for (let i = 0; i < seqs.length; i++) {
          const seq = seqs[i]!;
          if (seq <= covered) continue;
          const row = covering.get(scopeId, term, seq);
          if (!row) continue;
          covered = seq;
          if (row.start === start) continue;
          start = row.start;
          const block = decodeBlock(row.postings);
          runs.push(block);
          covered = Math.max(seq, block.seqs[block.seqs.length - 1] ?? seq);
        }
        return runs;
      },
    };
  }

  private updateBlock(scopeId: number, term: string, start: number, block: PostingBlock, best: number): void {
    this.statements.updateBlock.run(block.seqs.length, best, encodeBlock(block), scopeId, term, start);
  }
}

const EMPTY: PostingBlock = { seqs: new Float64Array(0), fields: new Uint16Array(0) };

interface BlockRow {
  start: number;
  best: number;
  postings: Buffer;
}

interface ScopeTotalsRow {
  scope_id: number;
  documents: number;
  problem_length: number;
  strategy_length: number;
  tags_length: number;
}
