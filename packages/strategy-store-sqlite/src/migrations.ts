import type Database from "better-sqlite3";
import { StrategyStoreError } from "@x/strategy-store-core";
import { documentTerms, termsText } from "@x/strategy-store-core/backend";
import { encodeIndexed, SqliteLexicalIndex } from "./lexical-index";

/**
 * Schema changes in order; `strategy_schema_version` records which ran. Append, never edit:
 * a database opened by an older release must reach the same schema by running the rest.
 */
const MIGRATIONS: ReadonlyArray<{
  version: number;
  run: (db: Database.Database) => void;
  /** The step replaced the index tables: every row is indexed again once the last step has run. */
  reindex?: boolean;
}> = [
  {
    version: 1,
    run: (db) =>
      db.exec(`
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
        INSERT INTO strategies_fts (rowid, problem, strategy, tags)
          VALUES (new.seq, new.problem, new.strategy, new.tags);
      END;
      CREATE TRIGGER strategies_fts_delete AFTER DELETE ON strategies BEGIN
        INSERT INTO strategies_fts (strategies_fts, rowid, problem, strategy, tags)
          VALUES ('delete', old.seq, old.problem, old.strategy, old.tags);
      END;
      -- Only text changes touch the index; outcome counters do not.
      CREATE TRIGGER strategies_fts_update AFTER UPDATE OF problem, strategy, tags ON strategies BEGIN
        INSERT INTO strategies_fts (strategies_fts, rowid, problem, strategy, tags)
          VALUES ('delete', old.seq, old.problem, old.strategy, old.tags);
        INSERT INTO strategies_fts (rowid, problem, strategy, tags)
          VALUES (new.seq, new.problem, new.strategy, new.tags);
      END;
    `),
  },
  {
    // FTS5 only found matches; ranking them read every match of the scope. The store now keeps
    // its own scope-local postings and statistics, ranked inside SQLite. (Version 4 replaced
    // these postings and indexes every row again, so this step no longer fills them.)
    version: 2,
    run: (db) => {
      db.exec(`
        DROP TRIGGER strategies_fts_insert;
        DROP TRIGGER strategies_fts_delete;
        DROP TRIGGER strategies_fts_update;
        DROP TABLE strategies_fts;
        ALTER TABLE strategies ADD COLUMN indexed TEXT NOT NULL DEFAULT '{"lengths":[0,0,0],"terms":[]}';
        CREATE TABLE strategy_scopes (
          scope_id INTEGER PRIMARY KEY,
          scope TEXT NOT NULL UNIQUE,
          documents INTEGER NOT NULL DEFAULT 0,
          problem_length INTEGER NOT NULL DEFAULT 0,
          strategy_length INTEGER NOT NULL DEFAULT 0,
          tags_length INTEGER NOT NULL DEFAULT 0
        );
        CREATE TABLE strategy_terms (
          scope_id INTEGER NOT NULL,
          term TEXT NOT NULL,
          documents INTEGER NOT NULL,
          PRIMARY KEY (scope_id, term)
        ) WITHOUT ROWID;
        CREATE TABLE strategy_postings (
          scope_id INTEGER NOT NULL,
          term TEXT NOT NULL,
          impact REAL NOT NULL,
          seq INTEGER NOT NULL,
          problem_count INTEGER NOT NULL,
          strategy_count INTEGER NOT NULL,
          tags_count INTEGER NOT NULL,
          problem_length INTEGER NOT NULL,
          strategy_length INTEGER NOT NULL,
          tags_length INTEGER NOT NULL,
          PRIMARY KEY (scope_id, term, impact DESC, seq)
        ) WITHOUT ROWID;
      `);
    },
  },
  {
    // Ranking counts query coverage over each candidate's terms; a plain column of them spares a
    // search parsing every candidate's JSON form (see lexical-index.ts).
    version: 3,
    run: (db) =>
      db.exec(`
        ALTER TABLE strategies ADD COLUMN terms TEXT NOT NULL DEFAULT '';
        UPDATE strategies SET terms = coalesce(
          (SELECT group_concat(json_extract(j.value, '$[0]'), ' ')
           FROM json_each(strategies.indexed, '$.terms') j), '');
      `),
  },
  {
    // One row per posting, and a term-count row beside it, made a put rewrite two B-tree pages per
    // term, and a search read postings one row at a time. Postings now sit in blocks of a term's
    // postings in `seq` order, with the term's totals in a row beside its newest block (see
    // lexical-index.ts): an append rewrites one page per term; a search reads a few blobs per term.
    version: 4,
    run: (db) => {
      db.exec(`
        DROP TABLE strategy_postings;
        DROP TABLE strategy_terms;
        UPDATE strategy_scopes SET documents = 0, problem_length = 0, strategy_length = 0, tags_length = 0;
        CREATE TABLE strategy_blocks (
          scope_id INTEGER NOT NULL,
          term TEXT NOT NULL,
          start INTEGER NOT NULL,
          documents INTEGER NOT NULL,
          best REAL NOT NULL,
          postings BLOB NOT NULL,
          PRIMARY KEY (scope_id, term, start)
        ) WITHOUT ROWID;
      `);
    },
    reindex: true,
  },
  {
    // A put rewrote the newest block and the totals row of every term it held, one page each, about
    // 36 pages a put. Its postings now go to one row of strategy_pending, merged into the blocks
    // PENDING_LIMIT documents at a time, term by term (see lexical-index.ts).
    version: 5,
    run: (db) =>
      db.exec(`
        ALTER TABLE strategy_scopes ADD COLUMN pending INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE strategy_scopes ADD COLUMN pending_tag INTEGER NOT NULL DEFAULT 0;
        CREATE TABLE strategy_pending (
          scope_id INTEGER NOT NULL,
          seq INTEGER NOT NULL,
          terms TEXT NOT NULL,
          postings BLOB NOT NULL,
          PRIMARY KEY (scope_id, seq)
        ) WITHOUT ROWID;
      `),
  },
];

/**
 * Indexes every row again, with the index of this release (so after the last migration has run):
 * for a migration that replaced the index tables.
 */
function reindex(db: Database.Database): void {
  const index = new SqliteLexicalIndex(db);
  const setIndexed = db.prepare("UPDATE strategies SET indexed = ?, terms = ? WHERE seq = ?");
  const page = db.prepare<[number], IndexSource>(
    "SELECT seq, scope, problem, strategy, tags FROM strategies WHERE seq > ? ORDER BY seq LIMIT 1000",
  );
  // A page at a time: a statement still iterating would keep the connection from writing.
  for (let rows = page.all(0); rows.length > 0; rows = page.all(rows.at(-1)!.seq)) {
    for (const row of rows) {
      const terms = documentTerms({ ...row, tags: tagsOf(row.tags) });
      index.add(index.scopeForWrite(row.scope), row.seq, terms);
      setIndexed.run(encodeIndexed(terms), termsText(terms), row.seq);
    }
  }
}

interface IndexSource {
  seq: number;
  scope: string;
  problem: string;
  strategy: string;
  tags: string;
}

function tagsOf(json: string): string[] {
  const tags: unknown = JSON.parse(json);
  if (Array.isArray(tags) && tags.every((tag) => typeof tag === "string")) return tags;
  throw new StrategyStoreError("backend", "a stored strategy row is malformed: tags");
}

export const SCHEMA_VERSION = MIGRATIONS.at(-1)!.version;

/**
 * Brings the database to the latest schema (or to `target`, for upgrade tests); safe when several
 * connections open at once.
 */
export function migrate(db: Database.Database, target = SCHEMA_VERSION): void {
  const run = db.transaction(() => {
    db.exec(
      "CREATE TABLE IF NOT EXISTS strategy_schema_version (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)",
    );
    const row = db.prepare("SELECT MAX(version) AS version FROM strategy_schema_version").get() as {
      version: number | null;
    };
    const current = row.version ?? 0;
    if (current > SCHEMA_VERSION) throw newerSchema(current);
    let rebuild = false;
    for (const migration of MIGRATIONS) {
      if (migration.version <= current || migration.version > target) continue;
      migration.run(db);
      rebuild ||= migration.reindex === true;
      db.prepare("INSERT INTO strategy_schema_version (version, applied_at) VALUES (?, ?)").run(
        migration.version,
        new Date().toISOString(),
      );
    }
    if (!rebuild) return;
    // Only this release's index can fill its tables, and only once they all exist.
    if (target !== SCHEMA_VERSION) {
      throw new StrategyStoreError("backend", `version ${target} is not a schema this release can index`);
    }
    reindex(db);
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
