import { bm25fSql, idfSql, lengthNormSql, queryTerms, readIndexedForm } from "@x/strategy-store-core/backend";
import type { DocumentTerms, FieldTriple } from "@x/strategy-store-core/backend";
import type { Executor } from "./connection";
import type { Tables } from "./migrations";
import { RECORD_COLUMNS } from "./rows";
import type { StrategyRow } from "./rows";

/** A row to index: its scope, its `seq` and what tokenising it gave. */
export interface IndexChange {
  scope: string;
  seq: string | number;
  terms: DocumentTerms;
}

export interface IndexRemoval {
  scope: string;
  seq: string | number;
  indexed: unknown;
}

/**
 * Scope totals and per-term document counts, as sorted delta arrays: every writer upserts scopes,
 * then terms, each in sorted order, so concurrent writers never wait on each other in a cycle.
 */
function deltas(changes: ReadonlyArray<{ scope: string; sign: number; lengths: FieldTriple; terms: string[] }>) {
  const scopes = new Map<string, [number, number, number, number]>();
  const terms = new Map<string, { scope: string; term: string; delta: number }>();
  for (const change of changes) {
    const totals = scopes.get(change.scope) ?? [0, 0, 0, 0];
    totals[0] += change.sign;
    for (let f = 0; f < 3; f++) totals[f + 1]! += change.sign * change.lengths[f]!;
    scopes.set(change.scope, totals);
    for (const term of change.terms) {
      const key = `${change.scope}\u0000${term}`;
      const entry = terms.get(key) ?? { scope: change.scope, term, delta: 0 };
      entry.delta += change.sign;
      terms.set(key, entry);
    }
  }
  const scopeList = [...scopes.entries()].sort(([a], [b]) => compare(a, b));
  const termList = [...terms.values()].sort((a, b) => compare(a.scope, b.scope) || compare(a.term, b.term));
  return {
    scopes: [scopeList.map(([scope]) => scope), ...[0, 1, 2, 3].map((i) => scopeList.map(([, t]) => t[i]!))],
    terms: [termList.map((t) => t.scope), termList.map((t) => t.term), termList.map((t) => t.delta)],
  };
}

// Byte order, as the "C" collation compares, so JS and PostgreSQL agree on the lock order.
function compare(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

/**
 * The scope-local inverted index on PostgreSQL. Writes run inside the caller's transaction; a
 * search is one statement that reads the scope's totals and term counts, scores every posting of
 * each query term along the (scope, term, impact) index, and lets the database sum, order and cut to
 * the candidate pool: nothing is left out, so the pool is exact.
 */
export class PostgresLexicalIndex {
  private readonly searchSql: string;

  constructor(private readonly t: Tables) {
    const float = (expr: string) => `(${expr})::float8`;
    const score = bm25fSql({
      counts: ["p.problem_count", "p.strategy_count", "p.tags_count"],
      lengths: ["p.problem_length", "p.strategy_length", "p.tags_length"],
      norms: ["sc.norm_problem", "sc.norm_strategy", "sc.norm_tags"],
      idf: "q.idf",
    });
    this.searchSql = `
      WITH sc AS (
        SELECT scope_id, ${float("documents")} AS n,
          ${lengthNormSql(float("documents"), float("problem_length"))} AS norm_problem,
          ${lengthNormSql(float("documents"), float("strategy_length"))} AS norm_strategy,
          ${lengthNormSql(float("documents"), float("tags_length"))} AS norm_tags
        FROM ${t.scopes} WHERE scope = $1 AND documents > 0
      ),
      q AS (
        SELECT t.term, ${idfSql("sc.n", float("t.documents"))} AS idf
        FROM sc JOIN ${t.terms} t ON t.scope_id = sc.scope_id AND t.term = ANY($2::text[]) AND t.documents > 0
      ),
      r AS (
        SELECT w.seq, sum(w.score) AS score
        FROM sc CROSS JOIN q CROSS JOIN LATERAL (
          SELECT p.seq, ${score} AS score FROM ${t.postings} p
          WHERE p.scope_id = sc.scope_id AND p.term = q.term
        ) w
        GROUP BY w.seq ORDER BY score DESC, w.seq LIMIT $3
      )
      SELECT ${RECORD_COLUMNS.split(", ")
        .map((c) => `s.${c}`)
        .join(", ")}, s.terms, r.score AS lexical_score
      FROM r JOIN ${t.strategies} s ON s.seq = r.seq ORDER BY r.score DESC, r.seq`;
  }

  async search(db: Executor, scope: string, query: string, pool: number) {
    const terms = queryTerms(query);
    if (terms.length === 0) return [];
    return db.query<StrategyRow & { terms: string; lexical_score: number }>(this.searchSql, [scope, terms, pool]);
  }

  /**
   * One statement that runs `insert` (an INSERT … RETURNING `seq`, `id`, `scope`, its parameters
   * first) and indexes what it inserted: scope totals, term counts and postings, each from the rows
   * the insert returned, so a conflicting row that inserted nothing counts nowhere. `terms[i]` is what
   * tokenising the row of id `ids[i]` gave; the parameters to append come back beside the text.
   */
  insertAndIndex(
    insert: string,
    firstParam: number,
    ids: readonly string[],
    terms: readonly DocumentTerms[],
  ): { sql: string; params: unknown[] } {
    const t = this.t;
    const $ = (i: number) => `$${firstParam + i}`;
    const postings = terms.flatMap((one, i) => one.postings.map((posting) => ({ id: ids[i]!, posting })));
    const sql = `WITH ins AS (${insert}),
      l AS (SELECT * FROM unnest(${$(0)}::text[], ${$(1)}::int[], ${$(2)}::int[], ${$(3)}::int[]) AS l(id, pl, sl, tl)),
      p AS (SELECT * FROM unnest(${$(4)}::text[], ${$(5)}::text[], ${$(6)}::float8[], ${$(7)}::int[], ${$(8)}::int[],
        ${$(9)}::int[]) AS p(id, term, impact, pc, sc, tc)),
      sc AS (
        INSERT INTO ${t.scopes} AS s (scope, documents, problem_length, strategy_length, tags_length)
        SELECT ins.scope, count(*), sum(l.pl), sum(l.sl), sum(l.tl) FROM ins JOIN l ON l.id = ins.id
        GROUP BY ins.scope ORDER BY ins.scope COLLATE "C"
        ON CONFLICT (scope) DO UPDATE SET documents = s.documents + excluded.documents,
          problem_length = s.problem_length + excluded.problem_length,
          strategy_length = s.strategy_length + excluded.strategy_length,
          tags_length = s.tags_length + excluded.tags_length
        RETURNING scope_id, scope
      ),
      tm AS (
        INSERT INTO ${t.terms} AS x (scope_id, term, documents)
        SELECT sc.scope_id, p.term, count(*)::int FROM p JOIN ins ON ins.id = p.id JOIN sc ON sc.scope = ins.scope
        GROUP BY sc.scope_id, sc.scope, p.term ORDER BY sc.scope COLLATE "C", p.term COLLATE "C"
        ON CONFLICT (scope_id, term) DO UPDATE SET documents = x.documents + excluded.documents
      ),
      po AS (
        INSERT INTO ${t.postings} (scope_id, term, impact, seq, problem_count, strategy_count, tags_count,
          problem_length, strategy_length, tags_length)
        SELECT sc.scope_id, p.term, p.impact, ins.seq, p.pc, p.sc, p.tc, l.pl, l.sl, l.tl
        FROM p JOIN ins ON ins.id = p.id JOIN l ON l.id = p.id JOIN sc ON sc.scope = ins.scope
        ORDER BY sc.scope_id, p.term, p.impact DESC, ins.seq
      )
      SELECT * FROM ins`;
    const params = [
      ids,
      ...[0, 1, 2].map((f) => terms.map((one) => one.lengths[f]!)),
      postings.map(({ id }) => id),
      postings.map(({ posting }) => posting.term),
      postings.map(({ posting }) => posting.impact),
      ...[0, 1, 2].map((f) => postings.map(({ posting }) => posting.counts[f]!)),
    ];
    return { sql, params };
  }

  /** Indexes newly written rows (their `seq` from the insert). */
  async add(tx: Executor, changes: readonly IndexChange[]): Promise<void> {
    if (changes.length === 0) return;
    const d = deltas(
      changes.map((c) => ({
        scope: c.scope,
        sign: 1,
        lengths: c.terms.lengths,
        terms: c.terms.postings.map((p) => p.term),
      })),
    );
    const postings = changes.flatMap((c) => c.terms.postings.map((p) => ({ c, p })));
    const t = this.t;
    await tx.query(
      `WITH sc AS (${this.upsertScopes()}), tm AS (${this.upsertTerms()})
       INSERT INTO ${t.postings} (scope_id, term, impact, seq, problem_count, strategy_count, tags_count,
         problem_length, strategy_length, tags_length)
       SELECT sc.scope_id, u.term, u.impact, u.seq, u.pc, u.sc, u.tc, u.pl, u.sl, u.tl
       FROM unnest($9::text[], $10::text[], $11::float8[], $12::bigint[], $13::int[], $14::int[], $15::int[],
         $16::int[], $17::int[], $18::int[]) AS u(scope, term, impact, seq, pc, sc, tc, pl, sl, tl)
       JOIN sc ON sc.scope = u.scope`,
      [
        ...d.scopes,
        ...d.terms,
        postings.map(({ c }) => c.scope),
        postings.map(({ p }) => p.term),
        postings.map(({ p }) => p.impact),
        postings.map(({ c }) => c.seq),
        ...[0, 1, 2].map((f) => postings.map(({ p }) => p.counts[f]!)),
        ...[0, 1, 2].map((f) => postings.map(({ c }) => c.terms.lengths[f]!)),
      ],
    );
  }

  /** Takes out what `add` wrote for rows being deleted or rewritten. */
  async remove(tx: Executor, removals: readonly IndexRemoval[]): Promise<void> {
    if (removals.length === 0) return;
    const forms = removals.map((r) => ({ r, form: readIndexedForm(r.indexed) }));
    const d = deltas(
      forms.map(({ r, form }) => ({
        scope: r.scope,
        sign: -1,
        lengths: form.lengths,
        terms: form.terms.map(([term]) => term),
      })),
    );
    const postings = forms.flatMap(({ r, form }) => form.terms.map(([term, impact]) => ({ r, term, impact })));
    await tx.query(
      `WITH sc AS (${this.upsertScopes()}), tm AS (${this.upsertTerms()})
       DELETE FROM ${this.t.postings} p
       USING unnest($9::text[], $10::text[], $11::float8[], $12::bigint[]) AS u(scope, term, impact, seq)
       JOIN sc ON sc.scope = u.scope
       WHERE p.scope_id = sc.scope_id AND p.term = u.term AND p.impact = u.impact AND p.seq = u.seq`,
      [
        ...d.scopes,
        ...d.terms,
        postings.map(({ r }) => r.scope),
        postings.map(({ term }) => term),
        postings.map(({ impact }) => impact),
        postings.map(({ r }) => r.seq),
      ],
    );
  }

  // $1..$5: scope, documents, problem, strategy and tags length deltas (sorted by scope).
  private upsertScopes(): string {
    const t = this.t;
    return `INSERT INTO ${t.scopes} AS s (scope, documents, problem_length, strategy_length, tags_length)
      SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::bigint[], $5::bigint[])
      ON CONFLICT (scope) DO UPDATE SET documents = s.documents + excluded.documents,
        problem_length = s.problem_length + excluded.problem_length,
        strategy_length = s.strategy_length + excluded.strategy_length,
        tags_length = s.tags_length + excluded.tags_length
      RETURNING scope_id, scope`;
  }

  // $6..$8: scope, term, document-count delta (sorted by scope, then term). A count that reaches
  // zero stays as a row; search skips it.
  private upsertTerms(): string {
    const t = this.t;
    return `INSERT INTO ${t.terms} AS x (scope_id, term, documents)
      SELECT sc.scope_id, u.term, u.delta
      FROM unnest($6::text[], $7::text[], $8::int[]) WITH ORDINALITY AS u(scope, term, delta, ord)
      JOIN sc ON sc.scope = u.scope ORDER BY u.ord
      ON CONFLICT (scope_id, term) DO UPDATE SET documents = x.documents + excluded.documents`;
  }
}
