import type { Pool, PoolClient } from "pg";

/** Anything that runs a parameterised query: a pool, or a client inside a transaction. */
export type Queryable = Pick<Pool | PoolClient, "query">;

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

/** A schema name checked before it is spliced into SQL (it cannot be a bind parameter). */
export function schemaName(name: string): string {
  if (!IDENTIFIER.test(name)) throw new TypeError(`schema must match ${IDENTIFIER} (got ${JSON.stringify(name)})`);
  return name;
}

/**
 * Values are `json`, not `jsonb`: jsonb refuses the NUL escape, which runs and tool results may
 * legitimately hold (the loop guard's keys do), and nothing here queries inside them.
 *
 * The queue's own tables, beside pg-boss's schema: tasks (one row per task, the source of truth for
 * its state), their events, their checkpoint chains, and the park calls ledger. Idempotent; safe to
 * run from every process.
 */
export function ddl(schema: string): string {
  const s = schemaName(schema);
  return `
CREATE SCHEMA IF NOT EXISTS ${s};
CREATE TABLE IF NOT EXISTS ${s}.tasks (
  id text PRIMARY KEY,
  owner text NOT NULL,
  scope text,
  status text NOT NULL CHECK (status IN
    ('queued', 'running', 'parked', 'resuming', 'completed', 'failed', 'dead_letter', 'unknown_outcome')),
  spec json NOT NULL,
  -- A whole checkpoint, as workers before checkpoint chains wrote it: still read for a task in
  -- flight across an upgrade, never written now (task_turns holds the chain).
  checkpoint json,
  parked json,
  park_id text UNIQUE,
  decision json,
  result json,
  error text,
  attempts integer NOT NULL DEFAULT 0,
  lease_owner text,
  lease_until timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS tasks_owner_status ON ${s}.tasks (owner, status);
CREATE TABLE IF NOT EXISTS ${s}.task_events (
  task_id text NOT NULL REFERENCES ${s}.tasks (id) ON DELETE CASCADE,
  seq bigserial,
  at timestamptz NOT NULL DEFAULT now(),
  event json NOT NULL,
  PRIMARY KEY (task_id, seq)
);
-- A running task's checkpoint chain, one signed link per finished turn (@x/runner's
-- onCheckpointSegment): a turn writes what it added, never the run so far. Link 0 starts a chain
-- and replaces the one before; a task that ends or parks drops its chain.
CREATE TABLE IF NOT EXISTS ${s}.task_turns (
  task_id text NOT NULL REFERENCES ${s}.tasks (id) ON DELETE CASCADE,
  seq integer NOT NULL,
  link json NOT NULL,
  PRIMARY KEY (task_id, seq)
);
CREATE TABLE IF NOT EXISTS ${s}.park_calls (
  park_id text PRIMARY KEY,
  state text NOT NULL CHECK (state IN ('claimed', 'executing', 'done', 'unknown_outcome')),
  owner text NOT NULL,
  lease_until timestamptz NOT NULL,
  result json,
  claimed_at timestamptz NOT NULL DEFAULT now(),
  executing_at timestamptz,
  done_at timestamptz,
  settled_at timestamptz
);
-- A task's kind (null: one runner run) and the kind's own state (WorkerOptions.kinds): the state
-- outlives a park and a dead worker, so it is kept apart from the checkpoint chain.
ALTER TABLE ${s}.tasks ADD COLUMN IF NOT EXISTS kind text;
ALTER TABLE ${s}.tasks ADD COLUMN IF NOT EXISTS driver_state json;
-- Tables made before the ledger could settle a park gain the column (PostgreSQL 9.6+).
ALTER TABLE ${s}.park_calls ADD COLUMN IF NOT EXISTS settled_at timestamptz;
-- A link holds a turn's tool results: kilobytes, compressed as stored. lz4 costs the database about
-- 60 µs less than the default pglz for a 4 KB result, a third of the write (the chain's links are
-- dropped when the task ends, so their larger size does not last). Kept as is where the server
-- has no lz4 (before PostgreSQL 14, or built without it), and not altered again once set.
DO $$
BEGIN
  IF (SELECT attcompression FROM pg_attribute
      WHERE attrelid = '${s}.task_turns'::regclass AND attname = 'link') <> 'l' THEN
    EXECUTE 'ALTER TABLE ${s}.task_turns ALTER COLUMN link SET COMPRESSION lz4';
  END IF;
EXCEPTION WHEN undefined_column OR syntax_error OR feature_not_supported THEN NULL;
END $$;`;
}

/** Creates the tables; safe when many processes start at once. */
export async function ensureSchema(pool: Pool, schema: string): Promise<void> {
  const client = await pool.connect();
  try {
    // Two processes creating the same tables at once can collide in the catalog: serialise them
    // with a session lock, which needs one connection for both lock and unlock.
    await client.query(`SELECT pg_advisory_lock(hashtext($1))`, [`x-queue:${schema}`]);
    try {
      await client.query(ddl(schema));
    } finally {
      await client.query(`SELECT pg_advisory_unlock(hashtext($1))`, [`x-queue:${schema}`]);
    }
  } finally {
    client.release();
  }
}
