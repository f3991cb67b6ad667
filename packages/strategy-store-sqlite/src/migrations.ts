import type Database from "better-sqlite3";
import { StrategyStoreError } from "@x/strategy-store-core";

/**
 * Schema changes in order; `strategy_schema_version` records which ran. Append, never edit:
 * a database opened by an older release must reach the same schema by running the rest.
 */
const MIGRATIONS: ReadonlyArray<{ version: number; sql: string }> = [
  {
    version: 1,
    sql: `
      CREATE TABLE strategies (
        seq INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        scope TEXT NOT NULL,
        strategy_key TEXT NOT NULL,
        problem TEXT NOT NULL,
        strategy TEXT NOT NULL,
        correction TEXT,
        next_step TEXT,
        confidence INTEGER NOT NULL CHECK (confidence BETWEEN 0 AND 3),
        source TEXT NOT NULL,
        tags TEXT NOT NULL DEFAULT '[]',
        embedding BLOB,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        uses INTEGER NOT NULL DEFAULT 0,
        successes INTEGER NOT NULL DEFAULT 0,
        UNIQUE (scope, strategy_key)
      );
      CREATE INDEX strategies_scope_id ON strategies (scope, id);
      -- External-content FTS5 table kept in step by triggers; porter stems, diacritics fold.
      CREATE VIRTUAL TABLE strategies_fts USING fts5(
        problem, strategy, tags,
        content = 'strategies', content_rowid = 'seq',
        tokenize = 'porter unicode61 remove_diacritics 2'
      );
      CREATE TRIGGER strategies_fts_insert AFTER INSERT ON strategies BEGIN
        INSERT INTO strategies_fts (rowid, problem, strategy, tags) VALUES (new.seq, new.problem, new.strategy, new.tags);
      END;
      CREATE TRIGGER strategies_fts_delete AFTER DELETE ON strategies BEGIN
        INSERT INTO strategies_fts (strategies_fts, rowid, problem, strategy, tags)
          VALUES ('delete', old.seq, old.problem, old.strategy, old.tags);
      END;
      -- Only text changes touch the index; outcome counters do not.
      CREATE TRIGGER strategies_fts_update AFTER UPDATE OF problem, strategy, tags ON strategies BEGIN
        INSERT INTO strategies_fts (strategies_fts, rowid, problem, strategy, tags)
          VALUES ('delete', old.seq, old.problem, old.strategy, old.tags);
        INSERT INTO strategies_fts (rowid, problem, strategy, tags) VALUES (new.seq, new.problem, new.strategy, new.tags);
      END;
    `,
  },
];

export const SCHEMA_VERSION = MIGRATIONS.at(-1)!.version;

/** Brings the database to the latest schema; safe when several connections open at once. */
export function migrate(db: Database.Database): void {
  const run = db.transaction(() => {
    db.exec(
      "CREATE TABLE IF NOT EXISTS strategy_schema_version (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)",
    );
    const row = db.prepare("SELECT MAX(version) AS version FROM strategy_schema_version").get() as {
      version: number | null;
    };
    const current = row.version ?? 0;
    if (current > SCHEMA_VERSION) throw newerSchema(current);
    for (const migration of MIGRATIONS) {
      if (migration.version <= current) continue;
      db.exec(migration.sql);
      db.prepare("INSERT INTO strategy_schema_version (version, applied_at) VALUES (?, ?)").run(
        migration.version,
        new Date().toISOString(),
      );
    }
  });
  // IMMEDIATE takes the write lock up front, so two processes never both see version 0.
  run.immediate();
}

// A newer release changed the schema in ways this one cannot know; writing through it could corrupt it.
function newerSchema(version: number): StrategyStoreError {
  return new StrategyStoreError(
    "backend",
    `the database schema is at version ${version}, newer than this release (${SCHEMA_VERSION})`,
  );
}
