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
  appendBlock,
  mergeBlocks,
  sliceBlock,
  withoutPosting,
  withPosting,
} from "./posting-block";
import type { PostingBlock } from "./posting-block";
import { decodePending, encodePending, PENDING_LIMIT } from "./pending-postings";
import { freshTag, PendingCache, postingsOf } from "./pending-cache";
import type { PendingByTerm, PendingPosting, PendingRow } from "./pending-cache";
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
 * the term, best impact); per scope, documents and summed field lengths. A write puts a document's
 * postings in one pending row of its scope (see pending-postings.ts); once {@link PENDING_LIMIT}
 * are pending, that write merges them into the blocks, term by term. All written in the caller's
 * transaction. A search reads the totals and the pending rows holding a query term, which together
 * are exact, then ranks with core's exact MaxScore: it scans the blocks of the terms that can bring
 * new documents and looks the rest up by `seq`.
 */
export class SqliteLexicalIndex {
  private readonly statements;
  private readonly pending = new PendingCache();

  constructor(db: Database.Database) {
    this.statements = {
      scopeId: db.prepare<[string], { scope_id: number }>("SELECT scope_id FROM strategy_scopes WHERE scope = ?"),
      newScope: db.prepare<[string]>("INSERT INTO strategy_scopes (scope) VALUES (?)"),
      totals: db.prepare<[string], ScopeTotalsRow>(
        `SELECT scope_id, documents, problem_length, strategy_length, tags_length, pending, pending_tag
         FROM strategy_scopes WHERE scope = ?`,
      ),
      pendingTag: db.prepare<[number], number>("SELECT pending_tag FROM strategy_scopes WHERE scope_id = ?").pluck(),
      adjustTotals: db.prepare<[number, number, number, number, number, number, number], { pending: number }>(
        `UPDATE strategy_scopes SET documents = documents + ?, problem_length = problem_length + ?,
           strategy_length = strategy_length + ?, tags_length = tags_length + ?, pending = pending + ?,
           pending_tag = ?
         WHERE scope_id = ? RETURNING pending`,
      ),
      addPending: db.prepare<[number, number, string, Buffer]>(
        "INSERT INTO strategy_pending (scope_id, seq, terms, postings) VALUES (?, ?, ?, ?)",
      ),
      allPending: db.prepare<[number], PendingRow>(
        "SELECT seq, terms, postings FROM strategy_pending WHERE scope_id = ? ORDER BY seq",
      ),
      dropPending: db.prepare<[number, number]>("DELETE FROM strategy_pending WHERE scope_id = ? AND seq = ?"),
      drainPending: db.prepare<[number], PendingRow>(
        "DELETE FROM strategy_pending WHERE scope_id = ? RETURNING seq, terms, postings",
      ),
      term: db.prepare<[number, string], { documents: number; best: number }>(
        `SELECT documents, best FROM strategy_blocks WHERE scope_id = ? AND term = ? AND start = ${TOTALS_START}`,
      ),
      // An update by the full key, then an insert only for a term new to the scope: one B-tree
      // descent in the usual case, where an upsert makes two.
      addToTerm: db.prepare<[number, number, number, string]>(
        `UPDATE strategy_blocks SET documents = documents + ?, best = max(best, ?)
         WHERE scope_id = ? AND term = ? AND start = ${TOTALS_START}`,
      ),
      newTerm: db.prepare<[number, string, number, number]>(
        `INSERT INTO strategy_blocks (scope_id, term, start, documents, best, postings)
         VALUES (?, ?, ${TOTALS_START}, ?, ?, x'')`,
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

  /** Indexes a document: its postings go pending, merged with the scope's others once there are enough. */
  add(scopeId: number, seq: number, terms: DocumentTerms): void {
    const form = encodePending(terms);
    this.statements.addPending.run(scopeId, seq, form.terms, form.postings);
    const [p, s, t] = terms.lengths;
    const pending = this.changePending(scopeId, [1, p, s, t, 1], (byTerm) => {
      for (const posting of terms.postings) {
        postingsOf(byTerm, posting.term).set(seq, { impact: posting.impact, fields: [...posting.counts, p, s, t] });
      }
    });
    if (pending >= PENDING_LIMIT) this.merge(scopeId);
  }

  /** Takes out what `add` wrote for the row, pending or merged; `indexed` is the row's stored form. */
  remove(scopeId: number, seq: number, indexed: string): void {
    const form = readIndexedForm(indexed);
    const [p, s, t] = form.lengths;
    if (this.statements.dropPending.run(scopeId, seq).changes > 0) {
      this.changePending(scopeId, [-1, -p, -s, -t, -1], (byTerm) => {
        for (const [term] of form.terms) byTerm.get(term)?.delete(seq);
      });
      return;
    }
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
    this.statements.adjustTotals.get(-1, -p, -s, -t, 0, this.statements.pendingTag.get(scopeId)!, scopeId);
  }

  /**
   * Moves the scope's totals by `delta` (documents, the three lengths, pending rows) after its
   * pending rows changed, under a new tag; the cached postings take the same `change`. Returns the
   * pending rows now.
   */
  private changePending(
    scopeId: number,
    delta: readonly [number, number, number, number, number],
    change: (byTerm: PendingByTerm) => void,
  ): number {
    const before = this.statements.pendingTag.get(scopeId)!;
    const after = freshTag();
    const { pending } = this.statements.adjustTotals.get(...delta, after, scopeId)!;
    this.pending.update(scopeId, before, after, change);
    return pending;
  }

  /** Merges the scope's pending postings, if it has at least `atLeast` pending documents. */
  flush(scope: string, atLeast: number): void {
    const totals = this.statements.totals.get(scope);
    if (totals && totals.pending >= Math.max(1, atLeast)) this.merge(totals.scope_id);
  }

  /**
   * Moves the scope's pending postings into the blocks: per term, the newest block is filled and
   * new ones follow, and the totals row moves once, however many documents brought the term.
   */
  merge(scopeId: number): void {
    const rows = this.statements.drainPending.all(scopeId).sort((a, b) => a.seq - b.seq);
    const byTerm = pendingByTerm(rows);
    // Terms in order, as writers touching the same terms lock them in the same order.
    for (const term of [...byTerm.keys()].sort()) this.mergeTerm(scopeId, term, byTerm.get(term)!);
    this.changePending(scopeId, [0, 0, 0, 0, -rows.length], (byTerm) => byTerm.clear());
  }

  private mergeTerm(scopeId: number, term: string, pending: PendingRun): void {
    const { covering, insertBlock } = this.statements;
    const n = pending.seqs.length;
    let newest = covering.get(scopeId, term, TOTALS_START - 1);
    let block = newest ? decodeBlock(newest.postings) : EMPTY;
    // A rewritten record keeps its seq, so its postings can belong inside any block: one at a time.
    let i = 0;
    const top = block.seqs.at(-1) ?? -Infinity;
    for (; i < n && pending.seqs[i]! <= top; i++) {
      this.insertInside(
        scopeId,
        term,
        pending.seqs[i]!,
        pending.fields.subarray(i * 6, i * 6 + 6),
        pending.impacts[i]!,
      );
    }
    if (i < n) {
      // The rest come after every posting of the term: they fill the newest block, then new blocks.
      if (i > 0) {
        newest = covering.get(scopeId, term, TOTALS_START - 1);
        block = newest ? decodeBlock(newest.postings) : EMPTY;
      }
      const take = newest ? Math.min(n - i, BLOCK_POSTINGS - block.seqs.length) : 0;
      if (take > 0) {
        const added = {
          seqs: pending.seqs.subarray(i, i + take),
          fields: pending.fields.subarray(i * 6, (i + take) * 6),
        };
        const best = Math.max(newest!.best, ...pending.impacts.subarray(i, i + take));
        this.updateBlock(scopeId, term, newest!.start, appendBlock(block, added), best);
        i += take;
      }
      for (; i < n; i += BLOCK_POSTINGS) {
        const fresh = sliceBlock(pending, i, Math.min(n, i + BLOCK_POSTINGS));
        const best = Math.max(...pending.impacts.subarray(i, i + fresh.seqs.length));
        insertBlock.run(scopeId, term, fresh.seqs[0]!, fresh.seqs.length, best, encodeBlock(fresh));
      }
    }
    if (this.statements.addToTerm.run(n, pending.best, scopeId, term).changes === 0) {
      this.statements.newTerm.run(scopeId, term, n, pending.best);
    }
  }

  /** One posting into the block covering its seq (or a block of its own below the first), split when past full. */
  private insertInside(scopeId: number, term: string, seq: number, fields: Uint16Array, impact: number): void {
    const row = this.statements.covering.get(scopeId, term, seq);
    const counts = [fields[0]!, fields[1]!, fields[2]!] as const;
    const lengths = [fields[3]!, fields[4]!, fields[5]!] as const;
    if (!row) {
      const fresh = withPosting(EMPTY, seq, counts, lengths);
      this.statements.insertBlock.run(scopeId, term, seq, 1, impact, encodeBlock(fresh));
      return;
    }
    const best = Math.max(row.best, impact);
    const grown = withPosting(decodeBlock(row.postings), seq, counts, lengths);
    // A block past its size splits in halves, the upper one keyed by its lowest seq.
    const half = grown.seqs.length > BLOCK_POSTINGS ? grown.seqs.length >>> 1 : grown.seqs.length;
    this.updateBlock(scopeId, term, row.start, sliceBlock(grown, 0, half), best);
    if (half < grown.seqs.length) {
      const upper = sliceBlock(grown, half);
      this.statements.insertBlock.run(scopeId, term, upper.seqs[0]!, upper.seqs.length, best, encodeBlock(upper));
    }
  }

  /** The `pool` best rows of the scope for `query`, light, with their BM25F scores; run inside a read transaction. */
  search(scope: string, query: string, pool: number): Array<LexicalCandidate<RankedRow>> {
    const totals = this.statements.totals.get(scope);
    if (!totals || totals.documents === 0) return [];
    const wanted = queryTerms(query);
    const pending =
      totals.pending > 0
        ? (this.pending.get(totals.scope_id, totals.pending_tag) ??
          this.pending.fill(totals.scope_id, totals.pending_tag, this.statements.allPending.all(totals.scope_id)))
        : undefined;
    const terms: TermPostings[] = [];
    for (const term of wanted) {
      const found = this.statements.term.get(totals.scope_id, term);
      const merged = found && found.documents > 0 ? found : undefined;
      const extra = pendingRun(pending?.get(term));
      if (merged || extra) terms.push(this.postings(totals.scope_id, term, merged, extra));
    }
    const lengths = [totals.problem_length, totals.strategy_length, totals.tags_length] as const;
    const top = maxScoreTop(terms, { documents: totals.documents, lengths }, pool);
    const rows = new Map(this.statements.ranked.all(JSON.stringify(top.map((hit) => hit.seq))).map((r) => [r.seq, r]));
    return top.map(({ seq, score }) => ({ ...rankedRow(rows.get(seq)!), score }));
  }

  /** A term's postings: its blocks (`merged`, the totals row, when it has any) and its pending ones. */
  private postings(
    scopeId: number,
    term: string,
    merged: { documents: number; best: number } | undefined,
    pending: PendingRun | undefined,
  ): TermPostings {
    const { blocks, covering } = this.statements;
    const all = () => (merged ? blocks.all(scopeId, term).map(decodeBlock) : []);
    return {
      documents: (merged?.documents ?? 0) + (pending?.seqs.length ?? 0),
      bestImpact: Math.max(merged?.best ?? 0, pending?.best ?? 0),
      scan: () => withPending(all(), pending),
      lookup: (seqs) => {
        if (!merged) return withPending([], pending);
        // Reading every block costs about what one lookup per block would: past that, scan.
        if (seqs.length >= merged.documents / BLOCK_POSTINGS) return withPending(all(), pending);
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
        return withPending(runs, pending);
      },
    };
  }

  private updateBlock(scopeId: number, term: string, start: number, block: PostingBlock, best: number): void {
    this.statements.updateBlock.run(block.seqs.length, best, encodeBlock(block), scopeId, term, start);
  }
}

const EMPTY: PostingBlock = { seqs: new Float64Array(0), fields: new Uint16Array(0) };

/** A term's pending postings, ascending by `seq`, with their impacts and the best of them. */
interface PendingRun extends PostingBlock {
  impacts: Float64Array;
  best: number;
}

/** The postings of pending rows (ascending by `seq`) per term. */
function pendingByTerm(rows: readonly PendingRow[]): Map<string, PendingRun> {
  const lists = new Map<string, { seqs: number[]; fields: number[]; impacts: number[] }>();
  for (const row of rows) {
    const decoded = decodePending(row.terms, row.postings);
    decoded.terms.forEach((term, i) => {
      let list = lists.get(term);
      if (!list) lists.set(term, (list = { seqs: [], fields: [], impacts: [] }));
      list.seqs.push(row.seq);
      list.impacts.push(decoded.impacts[i]!);
      for (let f = 0; f < 6; f++) list.fields.push(decoded.fields[i * 6 + f]!);
    });
  }
  const runs = new Map<string, PendingRun>();
  for (const [term, list] of lists) {
    runs.set(term, {
      seqs: Float64Array.from(list.seqs),
      fields: Uint16Array.from(list.fields),
      impacts: Float64Array.from(list.impacts),
      best: Math.max(...list.impacts),
    });
  }
  return runs;
}

/** A term's cached pending postings as a run ascending by `seq` (none when it has none). */
function pendingRun(postings: ReadonlyMap<number, PendingPosting> | undefined): PendingRun | undefined {
  if (!postings || postings.size === 0) return undefined;
  const seqs = Float64Array.from(postings.keys()).sort();
  const fields = new Uint16Array(seqs.length * 6);
  const impacts = new Float64Array(seqs.length);
  seqs.forEach((seq, i) => {
    const posting = postings.get(seq)!;
    fields.set(posting.fields, i * 6);
    impacts[i] = posting.impact;
  });
  return { seqs, fields, impacts, best: Math.max(...impacts) };
}

/**
 * Block runs and a term's pending postings as runs ascending by `seq`: the pending run after the
 * blocks when it comes after them (a new record's seq is above every other), else one merged run.
 */
function withPending(runs: PostingBlock[], pending: PendingRun | undefined): PostingBlock[] {
  if (!pending) return runs;
  const last = runs.at(-1)?.seqs.at(-1);
  if (last === undefined || pending.seqs[0]! > last) return [...runs, pending];
  return [mergeBlocks([...runs, pending])];
}

interface BlockRow {
  start: number;
  best: number;
  postings: Buffer;
}

interface ScopeTotalsRow {
  scope_id: number;
  pending: number;
  pending_tag: number;
  documents: number;
  problem_length: number;
  strategy_length: number;
  tags_length: number;
}
