import type Database from "better-sqlite3";
import {
  bm25fSql,
  idf,
  indexedForm,
  lengthNorms,
  postingsPerTerm,
  queryTerms,
  rankedFieldsFromRow,
  readIndexedForm,
  termsFromText,
} from "@x/strategy-store-core";
import type { DocumentTerms, LexicalCandidate, RankedFields } from "@x/strategy-store-core";
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
export function rankedRow(row: Pick<StrategyRow, "seq" | "terms">): { record: RankedRow; terms: Set<string> } {
  return { record: { ...rankedFieldsFromRow(row), seq: row.seq }, terms: termsFromText(row.terms) };
}

const SCORE = bm25fSql({
  counts: ["problem_count", "strategy_count", "tags_count"],
  lengths: ["problem_length", "strategy_length", "tags_length"],
  norms: ["@normProblem", "@normStrategy", "@normTags"],
  idf: "@idf",
});

/**
 * The scope-local inverted index: postings in (scope, term, impact) order, per-scope term
 * document counts and per-scope totals, all written in the caller's transaction. A search
 * reads the totals, one counter per query term, and at most `postingsPerTerm` postings per term
 * along the primary key; SQL sums and ranks them and returns only the top rows.
 */
export class SqliteLexicalIndex {
  private readonly statements;
  private readonly searches = new Map<number, Database.Statement>();

  constructor(private readonly db: Database.Database) {
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
      termCount: db.prepare<[number, string], { documents: number }>(
        "SELECT documents FROM strategy_terms WHERE scope_id = ? AND term = ?",
      ),
      addTerm: db.prepare<[number, string]>(
        `INSERT INTO strategy_terms (scope_id, term, documents) VALUES (?, ?, 1)
         ON CONFLICT (scope_id, term) DO UPDATE SET documents = documents + 1`,
      ),
      dropTerm: db.prepare<[number, string]>(
        "UPDATE strategy_terms SET documents = documents - 1 WHERE scope_id = ? AND term = ?",
      ),
      pruneTerm: db.prepare<[number, string]>(
        "DELETE FROM strategy_terms WHERE scope_id = ? AND term = ? AND documents <= 0",
      ),
      addPosting: db.prepare(
        `INSERT INTO strategy_postings (scope_id, term, impact, seq, problem_count, strategy_count, tags_count,
           problem_length, strategy_length, tags_length) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      dropPosting: db.prepare<[number, string, number, number]>(
        "DELETE FROM strategy_postings WHERE scope_id = ? AND term = ? AND impact = ? AND seq = ?",
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
      this.statements.addPosting.run(scopeId, posting.term, posting.impact, seq, ...posting.counts, p, s, t);
      this.statements.addTerm.run(scopeId, posting.term);
    }
    this.statements.adjustTotals.run(1, p, s, t, scopeId);
  }

  /** Takes out what `add` wrote for the row; `indexed` is the row's stored form. */
  remove(scopeId: number, seq: number, indexed: string): void {
    const form = readIndexedForm(indexed);
    for (const [term, impact] of form.terms) {
      this.statements.dropPosting.run(scopeId, term, impact, seq);
      this.statements.dropTerm.run(scopeId, term);
      this.statements.pruneTerm.run(scopeId, term);
    }
    const [p, s, t] = form.lengths;
    this.statements.adjustTotals.run(-1, -p, -s, -t, scopeId);
  }

  /** The `pool` best rows of the scope for `query`, light, with their BM25F scores; run inside a read transaction. */
  search(scope: string, query: string, pool: number): Array<LexicalCandidate<RankedRow>> {
    const totals = this.statements.totals.get(scope);
    if (!totals || totals.documents === 0) return [];
    const params: Record<string, number | string> = { scope: totals.scope_id, pool };
    const present: string[] = [];
    const terms = queryTerms(query);
    for (const term of terms) {
      const df = this.statements.termCount.get(totals.scope_id, term)?.documents ?? 0;
      if (df <= 0) continue;
      params[`t${present.length}`] = term;
      params[`idf${present.length}`] = idf(totals.documents, df);
      present.push(term);
    }
    if (present.length === 0) return [];
    const norms = lengthNorms({
      documents: totals.documents,
      lengths: [totals.problem_length, totals.strategy_length, totals.tags_length],
    });
    Object.assign(params, {
      normProblem: norms[0],
      normStrategy: norms[1],
      normTags: norms[2],
      limit: postingsPerTerm(terms.length, pool),
    });
    const rows = this.searchStatement(present.length).all(params) as Array<StrategyRow & { lexical_score: number }>;
    return rows.map((row) => ({ ...rankedRow(row), score: row.lexical_score }));
  }

  private searchStatement(terms: number): Database.Statement {
    let statement = this.searches.get(terms);
    if (!statement) {
      const perTerm = Array.from(
        { length: terms },
        (_, i) =>
          `SELECT * FROM (SELECT seq, ${SCORE.replaceAll("@idf", `@idf${i}`)} AS w FROM strategy_postings
             WHERE scope_id = @scope AND term = @t${i} ORDER BY impact DESC, seq LIMIT @limit)`,
      );
      statement = this.db.prepare(
        `SELECT ${RANKED_COLUMNS.split(", ")
          .map((column) => `s.${column}`)
          .join(", ")}, r.score AS lexical_score FROM (
           SELECT seq, SUM(w) AS score FROM (${perTerm.join(" UNION ALL ")})
           GROUP BY seq ORDER BY score DESC, seq LIMIT @pool
         ) r JOIN strategies s ON s.seq = r.seq ORDER BY r.score DESC, r.seq`,
      );
      this.searches.set(terms, statement);
    }
    return statement;
  }
}

interface ScopeTotalsRow {
  scope_id: number;
  documents: number;
  problem_length: number;
  strategy_length: number;
  tags_length: number;
}
