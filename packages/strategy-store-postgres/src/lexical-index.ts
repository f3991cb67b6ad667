import { BM25F, maxScoreTop, queryTerms, readIndexedForm } from "@x/strategy-store-core/backend";
import type { DocumentTerms, FieldTriple, ScoredSeq, TermPostings } from "@x/strategy-store-core/backend";
import type { Executor } from "./connection";
import type { Tables } from "./migrations";
import { PostingRuns } from "./posting-runs";
import { RECORD_COLUMNS } from "./rows";
import type { StrategyRow } from "./rows";

/** A row to index: its scope, its `seq` and what tokenising it gave. */
export interface IndexChange {
  scope: string;
  seq: string | number;
  terms: DocumentTerms;
}

interface TermRow {
  documents: string;
  problem_length: string;
  strategy_length: string;
  tags_length: string;
  /**
   * The term's postings, `string_agg` of the `posting` column ascending by `seq`, in base64; null
   * for a term no document of the scope holds.
   */
  postings: string | null;
}

export interface IndexRemoval {
  scope: string;
  seq: string | number;
  indexed: unknown;
}

/**
 * Scope totals as sorted delta arrays: every writer upserts its scopes in sorted order, so
 * concurrent writers never wait on each other in a cycle.
 */
function scopeDeltas(changes: ReadonlyArray<{ scope: string; sign: number; lengths: FieldTriple }>): unknown[] {
  const scopes = new Map<string, [number, number, number, number]>();
  for (const change of changes) {
    const totals = scopes.get(change.scope) ?? [0, 0, 0, 0];
    totals[0] += change.sign;
    for (let f = 0; f < 3; f++) totals[f + 1]! += change.sign * change.lengths[f]!;
    scopes.set(change.scope, totals);
  }
  const scopeList = [...scopes.entries()].sort(([a], [b]) => compare(a, b));
  return [scopeList.map(([scope]) => scope), ...[0, 1, 2, 3].map((i) => scopeList.map(([, t]) => t[i]!))];
}

// Byte order, as the "C" collation compares, so JS and PostgreSQL agree on the lock order.
function compare(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

/**
 * A posting as the `posting` column holds it, built in SQL so the row's `seq` goes in: `seq`
 * (int8), then the three field counts and the three field lengths (int2 each), network byte order.
 * A search reads a term's postings as one `string_agg` of these, not as one row each.
 */
function postingBytes(seq: string, counts: readonly string[], lengths: readonly string[]): string {
  return [`int8send(${seq})`, ...[...counts, ...lengths].map((n) => `int2send((${n})::int2)`)].join(" || ");
}

/**
 * The scope-local inverted index on PostgreSQL: per scope, documents and summed field lengths; per
 * (scope, term), one row per posting. Writes run inside the caller's transaction. A search reads,
 * in one statement, the scope's totals and each query term's postings as one value along the
 * (scope, term, seq) index; their count is the term's document frequency. Core's exact MaxScore
 * ranks them (nothing is cut), and a second statement reads the pool's rows.
 */
export class PostgresLexicalIndex {
  private readonly postingsSql: string;
  private readonly rowsSql: string;
  /** Reused by every search; read only between its two statements, with no `await` in between. */
  private readonly runs = new PostingRuns();

  constructor(private readonly t: Tables) {
    // One row per query term, its postings aggregated from a subquery that reads them along the
    // (scope, term, seq) index: already in `seq` order, so nothing is sorted. Grouping the join by
    // term instead sorted every posting twice (by the group keys, then by `seq` inside the
    // aggregate), two thirds of the statement's time at 100k records (5.7 ms against 1.3 ms).
    // The postings travel as base64 text, not bytea: PGlite parses a bytea result two hex digits at
    // a time in JS (a search at 100k records spent 7 of its 9 ms there), and `pg` gets a third
    // fewer bytes than bytea's hex; Buffer's decoder is native, and skips the encoder's line breaks.
    this.postingsSql = `
      SELECT sc.documents, sc.problem_length, sc.strategy_length, sc.tags_length,
        encode((SELECT string_agg(x.posting, ''::bytea) FROM (
          SELECT p.posting FROM ${t.postings} p WHERE p.scope_id = sc.scope_id AND p.term = q.term ORDER BY p.seq
        ) x), 'base64') AS postings
      FROM ${t.scopes} sc, unnest($2::text[]) AS q(term)
      WHERE sc.scope = $1 AND sc.documents > 0`;
    this.rowsSql = `SELECT ${RECORD_COLUMNS}, seq, terms FROM ${t.strategies} WHERE seq = ANY($1::bigint[])`;
  }

  /** The scope's `pool` best rows by exact scope-local BM25F, best first, with their scores. */
  async search(
    db: Executor,
    scope: string,
    query: string,
    pool: number,
  ): Promise<Array<{ row: StrategyRow & { terms: string }; score: number }>> {
    const terms = queryTerms(query);
    if (terms.length === 0) return [];
    const found = await db.query<TermRow>(this.postingsSql, [scope, terms]);
    const first = found[0];
    if (!first) return [];
    const held = found.flatMap((row) => (row.postings === null ? [] : [row.postings]));
    // Every posting is at hand, so pruning saves no reading: the bound every impact stays below will do.
    const postings: TermPostings[] = this.runs.decode(held).map((run) => ({
      documents: run.seqs.length,
      bestImpact: BM25F.k1 + 1,
      scan: () => [run],
      lookup: () => [run],
    }));
    const lengths = [Number(first.problem_length), Number(first.strategy_length), Number(first.tags_length)] as const;
    const top: ScoredSeq[] = maxScoreTop(postings, { documents: Number(first.documents), lengths }, pool);
    if (top.length === 0) return [];
    const rows = await db.query<StrategyRow & { seq: string; terms: string }>(this.rowsSql, [
      top.map((hit) => hit.seq),
    ]);
    const bySeq = new Map(rows.map((row) => [Number(row.seq), row]));
    // A row deleted between the two statements is left out, as if the search had run after the delete.
    return top.flatMap(({ seq, score }) => {
      const row = bySeq.get(seq);
      return row ? [{ row, score }] : [];
    });
  }

  /**
   * One statement that runs `insert` (an INSERT … RETURNING `seq`, `id`, `scope`, its parameters
   * first) and indexes what it inserted: scope totals and postings, each from the rows
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
      po AS (
        INSERT INTO ${t.postings} (scope_id, term, seq, posting)
        SELECT sc.scope_id, p.term, ins.seq,
          ${postingBytes("ins.seq", ["p.pc", "p.sc", "p.tc"], ["l.pl", "l.sl", "l.tl"])}
        FROM p JOIN ins ON ins.id = p.id JOIN l ON l.id = p.id JOIN sc ON sc.scope = ins.scope
        ORDER BY sc.scope_id, p.term, ins.seq
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
    const scopes = scopeDeltas(changes.map((c) => ({ scope: c.scope, sign: 1, lengths: c.terms.lengths })));
    const postings = changes.flatMap((c) => c.terms.postings.map((p) => ({ c, p })));
    const t = this.t;
    await tx.query(
      `WITH sc AS (${this.upsertScopes()})
       INSERT INTO ${t.postings} (scope_id, term, seq, posting)
       SELECT sc.scope_id, u.term, u.seq, ${postingBytes("u.seq", ["u.pc", "u.sc", "u.tc"], ["u.pl", "u.sl", "u.tl"])}
       FROM unnest($6::text[], $7::text[], $8::bigint[], $9::int[], $10::int[], $11::int[],
         $12::int[], $13::int[], $14::int[]) AS u(scope, term, seq, pc, sc, tc, pl, sl, tl)
       JOIN sc ON sc.scope = u.scope`,
      [
        ...scopes,
        postings.map(({ c }) => c.scope),
        postings.map(({ p }) => p.term),
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
    const scopes = scopeDeltas(forms.map(({ r, form }) => ({ scope: r.scope, sign: -1, lengths: form.lengths })));
    const postings = forms.flatMap(({ r, form }) => form.terms.map(([term]) => ({ r, term })));
    await tx.query(
      `WITH sc AS (${this.upsertScopes()})
       DELETE FROM ${this.t.postings} p
       USING unnest($6::text[], $7::text[], $8::bigint[]) AS u(scope, term, seq)
       JOIN sc ON sc.scope = u.scope
       WHERE p.scope_id = sc.scope_id AND p.term = u.term AND p.seq = u.seq`,
      [...scopes, postings.map(({ r }) => r.scope), postings.map(({ term }) => term), postings.map(({ r }) => r.seq)],
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
}
