import { StrategyStoreError } from "@x/strategy-store-core";
import { documentTerms, indexedForm } from "@x/strategy-store-core/backend";
import type { Executor } from "./connection";

export interface Tables {
  schema: string;
  strategies: string;
  versions: string;
  scopes: string;
  terms: string;
  postings: string;
}

export function tablesFor(schema: string): Tables {
  const q = `"${schema}"`;
  return {
    schema: q,
    strategies: `${q}.strategies`,
    versions: `${q}.strategy_schema_version`,
    scopes: `${q}.strategy_scopes`,
    terms: `${q}.strategy_terms`,
    postings: `${q}.strategy_postings`,
  };
}

/** Append-only: a database at version n reaches the latest schema by running n+1 onward. */
// One statement per entry: PGlite (extended protocol) runs one statement per query.
interface Migration {
  version: number;
  sql: (t: Tables) => string[];
  /** Work SQL alone cannot do (tokenising existing rows), run after the statements. */
  after?: (tx: Executor, t: Tables) => Promise<void>;
}

const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    sql: (t) => [
      `CREATE TABLE ${t.strategies} (
        id text COLLATE "C" PRIMARY KEY,
        scope text NOT NULL,
        strategy_key text NOT NULL,
        problem text NOT NULL,
        strategy text NOT NULL,
        correction text,
        next_step text,
        confidence smallint NOT NULL CHECK (confidence BETWEEN 0 AND 3),
        source text NOT NULL,
        tags text[] NOT NULL DEFAULT '{}',
        embedding double precision[],
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        uses integer NOT NULL DEFAULT 0,
        successes integer NOT NULL DEFAULT 0,
        tsv tsvector GENERATED ALWAYS AS (
          setweight(to_tsvector('english', problem), 'A') || setweight(to_tsvector('english', strategy), 'B')
        ) STORED,
        UNIQUE (scope, strategy_key)
      )`,
      `CREATE INDEX strategies_scope_id ON ${t.strategies} (scope, id)`,
      `CREATE INDEX strategies_tsv ON ${t.strategies} USING gin (tsv)`,
    ],
  },
  {
    // Tags join the text search (weight C), as they do on the other backends. array_to_string is
    // only STABLE, so a generated column reaches it through an IMMUTABLE wrapper.
    version: 2,
    sql: (t) => [
      `CREATE OR REPLACE FUNCTION ${t.schema}.strategy_tags_text(tags text[]) RETURNS text
         LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT pg_catalog.array_to_string(tags, ' ') $$`,
      `ALTER TABLE ${t.strategies} DROP COLUMN tsv`,
      `ALTER TABLE ${t.strategies} ADD COLUMN tsv tsvector GENERATED ALWAYS AS (
          setweight(to_tsvector('english', problem), 'A') || setweight(to_tsvector('english', strategy), 'B') ||
          setweight(to_tsvector('english', ${t.schema}.strategy_tags_text(tags)), 'C')
        ) STORED`,
      `CREATE INDEX strategies_tsv ON ${t.strategies} USING gin (tsv)`,
    ],
  },
  {
    // ts_rank scored every match of a scope before the LIMIT. The store now keeps scope-local
    // postings and statistics on write (lexical-index.ts) and ranks along an index.
    version: 3,
    sql: (t) => [
      `ALTER TABLE ${t.strategies} DROP COLUMN tsv`,
      `DROP FUNCTION ${t.schema}.strategy_tags_text(text[])`,
      `ALTER TABLE ${t.strategies} ADD COLUMN seq bigint GENERATED ALWAYS AS IDENTITY`,
      `CREATE UNIQUE INDEX strategies_seq ON ${t.strategies} (seq)`,
      `ALTER TABLE ${t.strategies} ADD COLUMN indexed jsonb NOT NULL DEFAULT '{"lengths":[0,0,0],"terms":[]}'`,
      `CREATE TABLE ${t.scopes} (
        scope_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        scope text NOT NULL UNIQUE,
        documents bigint NOT NULL DEFAULT 0,
        problem_length bigint NOT NULL DEFAULT 0,
        strategy_length bigint NOT NULL DEFAULT 0,
        tags_length bigint NOT NULL DEFAULT 0
      )`,
      `CREATE TABLE ${t.terms} (
        scope_id bigint NOT NULL,
        term text COLLATE "C" NOT NULL,
        documents integer NOT NULL,
        PRIMARY KEY (scope_id, term)
      )`,
      `CREATE TABLE ${t.postings} (
        scope_id bigint NOT NULL,
        term text COLLATE "C" NOT NULL,
        impact double precision NOT NULL,
        seq bigint NOT NULL,
        problem_count integer NOT NULL,
        strategy_count integer NOT NULL,
        tags_count integer NOT NULL,
        problem_length integer NOT NULL,
        strategy_length integer NOT NULL,
        tags_length integer NOT NULL
      )`,
      // Search walks one (scope, term) range best impact first and reads the counts from the index.
      `CREATE UNIQUE INDEX strategy_postings_order ON ${t.postings} (scope_id, term, impact DESC, seq)
        INCLUDE (problem_count, strategy_count, tags_count, problem_length, strategy_length, tags_length)`,
    ],
    after: backfillIndex,
  },
  {
    // Ranking counts query coverage over each candidate's terms: a plain column of them spares a
    // search reading every candidate's text or JSON form.
    version: 4,
    sql: (t) => [
      `ALTER TABLE ${t.strategies} ADD COLUMN terms text NOT NULL DEFAULT ''`,
      `UPDATE ${t.strategies} SET terms = coalesce(
         (SELECT string_agg(e.value ->> 0, ' ') FROM jsonb_array_elements(indexed -> 'terms') AS e(value)), '')`,
    ],
  },
  {
    // Search ranks in JS with core's exact MaxScore: it reads each query term's postings as one
    // value in `seq` order (the ints packed into `posting`); their count is the term's document
    // frequency. Impact order, the per-posting columns and the per-term counts served the per-term
    // cut, which was not exact, and cost every write an upsert per term.
    version: 5,
    sql: (t) => [
      `ALTER TABLE ${t.postings} ADD COLUMN posting bytea`,
      `UPDATE ${t.postings} SET posting = int8send(seq) || int2send(problem_count::int2) ||
         int2send(strategy_count::int2) || int2send(tags_count::int2) || int2send(problem_length::int2) ||
         int2send(strategy_length::int2) || int2send(tags_length::int2)`,
      `ALTER TABLE ${t.postings} ALTER COLUMN posting SET NOT NULL`,
      `DROP INDEX ${t.schema}.strategy_postings_order`,
      `ALTER TABLE ${t.postings} DROP COLUMN impact, DROP COLUMN problem_count, DROP COLUMN strategy_count,
         DROP COLUMN tags_count, DROP COLUMN problem_length, DROP COLUMN strategy_length, DROP COLUMN tags_length`,
      `CREATE UNIQUE INDEX strategy_postings_seq ON ${t.postings} (scope_id, term, seq) INCLUDE (posting)`,
      `DROP TABLE ${t.terms}`,
    ],
  },
];

/**
 * Indexes the rows an older version wrote, a batch at a time, in the tables as version 3 made them
 * (version 5 converts them with the rest). It runs alone under the migration lock, so one statement
 * per table is enough.
 */
async function backfillIndex(tx: Executor, t: Tables): Promise<void> {
  for (let after = 0; ;) {
    const rows = await tx.query<{ seq: string; scope: string; problem: string; strategy: string; tags: string[] }>(
      `SELECT seq, scope, problem, strategy, tags FROM ${t.strategies} WHERE seq > $1 ORDER BY seq LIMIT 1000`,
      [after],
    );
    if (rows.length === 0) return;
    const changes = rows.map((row) => ({ scope: row.scope, seq: row.seq, terms: documentTerms(row) }));
    await tx.query(
      `INSERT INTO ${t.scopes} AS s (scope, documents, problem_length, strategy_length, tags_length)
       SELECT u.scope, count(*), sum(u.pl), sum(u.sl), sum(u.tl)
       FROM unnest($1::text[], $2::int[], $3::int[], $4::int[]) AS u(scope, pl, sl, tl) GROUP BY u.scope
       ON CONFLICT (scope) DO UPDATE SET documents = s.documents + excluded.documents,
         problem_length = s.problem_length + excluded.problem_length,
         strategy_length = s.strategy_length + excluded.strategy_length,
         tags_length = s.tags_length + excluded.tags_length`,
      [changes.map((c) => c.scope), ...[0, 1, 2].map((f) => changes.map((c) => c.terms.lengths[f]!))],
    );
    const postings = changes.flatMap((c) => c.terms.postings.map((p) => ({ c, p })));
    await tx.query(
      `INSERT INTO ${t.terms} AS x (scope_id, term, documents)
       SELECT s.scope_id, u.term, count(*) FROM unnest($1::text[], $2::text[]) AS u(scope, term)
       JOIN ${t.scopes} s ON s.scope = u.scope GROUP BY s.scope_id, u.term
       ON CONFLICT (scope_id, term) DO UPDATE SET documents = x.documents + excluded.documents`,
      [postings.map(({ c }) => c.scope), postings.map(({ p }) => p.term)],
    );
    await tx.query(
      `INSERT INTO ${t.postings} (scope_id, term, impact, seq, problem_count, strategy_count, tags_count,
         problem_length, strategy_length, tags_length)
       SELECT s.scope_id, u.term, u.impact, u.seq, u.pc, u.sc, u.tc, u.pl, u.sl, u.tl
       FROM unnest($1::text[], $2::text[], $3::float8[], $4::bigint[], $5::int[], $6::int[], $7::int[],
         $8::int[], $9::int[], $10::int[]) AS u(scope, term, impact, seq, pc, sc, tc, pl, sl, tl)
       JOIN ${t.scopes} s ON s.scope = u.scope`,
      [
        postings.map(({ c }) => c.scope),
        postings.map(({ p }) => p.term),
        postings.map(({ p }) => p.impact),
        postings.map(({ c }) => c.seq),
        ...[0, 1, 2].map((f) => postings.map(({ p }) => p.counts[f]!)),
        ...[0, 1, 2].map((f) => postings.map(({ c }) => c.terms.lengths[f]!)),
      ],
    );
    await tx.query(
      `UPDATE ${t.strategies} s SET indexed = u.indexed FROM unnest($1::bigint[], $2::jsonb[]) AS u(seq, indexed)
       WHERE s.seq = u.seq`,
      [changes.map((c) => c.seq), changes.map((c) => JSON.stringify(indexedForm(c.terms)))],
    );
    after = Number(rows.at(-1)!.seq);
  }
}

/**
 * Runs pending migrations under a transaction-scoped advisory lock (so concurrent openers take
 * turns), then adds the pgvector column when the extension can be had. Returns the schema holding
 * the `vector` type, or undefined when there is none.
 */
export async function migrate(
  db: Executor,
  t: Tables,
  wantVector: boolean,
  /** Stop at this version (upgrade tests build an old schema with it). */
  target = SCHEMA_VERSION,
): Promise<string | undefined> {
  return db.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`x-strategy-store:${t.schema}`]);
    await tx.query(`CREATE SCHEMA IF NOT EXISTS ${t.schema}`);
    await tx.query(
      `CREATE TABLE IF NOT EXISTS ${t.versions} (version integer PRIMARY KEY, applied_at timestamptz NOT NULL)`,
    );
    const [row] = await tx.query<{ version: number | null }>(`SELECT MAX(version) AS version FROM ${t.versions}`);
    const current = row?.version ?? 0;
    // A newer release changed the schema in ways this one cannot know; writing through it could corrupt it.
    if (current > SCHEMA_VERSION) {
      throw new StrategyStoreError(
        "backend",
        `the database schema is at version ${current}, newer than this release (${SCHEMA_VERSION})`,
      );
    }
    for (const migration of MIGRATIONS) {
      if (migration.version <= current || migration.version > target) continue;
      for (const statement of migration.sql(t)) await tx.query(statement);
      await migration.after?.(tx, t);
      await tx.query(`INSERT INTO ${t.versions} (version, applied_at) VALUES ($1, now())`, [migration.version]);
    }
    if (!wantVector) return undefined;
    const vectorSchema = await ensureVector(tx);
    if (vectorSchema === undefined) return undefined;
    const vector = `"${vectorSchema}".vector`;
    await tx.query(`ALTER TABLE ${t.strategies} ADD COLUMN IF NOT EXISTS embedding_vec ${vector}`);
    await tx.query(
      `UPDATE ${t.strategies} SET embedding_vec = embedding::${vector} ` +
        `WHERE embedding IS NOT NULL AND embedding_vec IS NULL`,
    );
    return vectorSchema;
  });
}

async function ensureVector(tx: Executor): Promise<string | undefined> {
  const installed = async () =>
    (
      await tx.query<{ schema: string }>(
        "SELECT extnamespace::regnamespace::text AS schema FROM pg_extension WHERE extname = 'vector'",
      )
    )[0]?.schema;
  const existing = await installed();
  if (existing !== undefined) return existing.replace(/^"|"$/g, "");
  const available = await tx.query("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'");
  if (available.length === 0) return undefined;
  // A savepoint keeps a refused CREATE EXTENSION (no privilege) from aborting the migration.
  await tx.query("SAVEPOINT vector_ext");
  try {
    await tx.query("CREATE EXTENSION IF NOT EXISTS vector");
    await tx.query("RELEASE SAVEPOINT vector_ext");
  } catch {
    await tx.query("ROLLBACK TO SAVEPOINT vector_ext");
    return undefined;
  }
  return (await installed())?.replace(/^"|"$/g, "");
}

export const SCHEMA_VERSION = MIGRATIONS.at(-1)!.version;
