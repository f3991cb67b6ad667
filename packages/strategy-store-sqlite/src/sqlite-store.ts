import Database from "better-sqlite3";
import {
  candidatePoolSize,
  closedError,
  cosineSimilarity,
  decodeCursor,
  DEFAULT_LIST_LIMIT,
  embedOne,
  encodeCursor,
  mergeRecord,
  newId,
  newRecord,
  notFound,
  parseId,
  parseList,
  parseScope,
  parseSearch,
  parseSuccess,
  prepareStrategy,
  queryWords,
  rankCandidates,
  StrategyStoreError,
} from "@x/strategy-store-core";
import type {
  EmbedFn,
  LexicalCandidate,
  ListQuery,
  SearchQuery,
  StrategyHit,
  StrategyInput,
  StrategyPage,
  StrategyRecord,
  StrategyStore,
  StrategyStoreOptions,
  VectorCandidate,
} from "@x/strategy-store-core";
import { migrate } from "./migrations";
import { encodeEmbedding, rowToRecord } from "./rows";
import type { StrategyRow } from "./rows";
import { scopeBm25, scoringTerms } from "./scope-bm25";

export interface SqliteStrategyStoreOptions extends StrategyStoreOptions {
  /** A database file path (":memory:" for a private in-memory database), or an open connection. */
  database: string | Database.Database;
  /** How long a writer waits for another connection's lock before failing with `busy` (default 5000 ms). */
  busyTimeoutMs?: number;
}

/** StrategyStore on one SQLite file: WAL, FTS5 matching with scope-local BM25, atomic counters, versioned migrations. */
export class SqliteStrategyStore implements StrategyStore {
  readonly vectorSearch: boolean;
  private readonly db: Database.Database;
  private readonly ownsDb: boolean;
  private readonly embed: EmbedFn | undefined;
  private closed = false;

  constructor(options: SqliteStrategyStoreOptions) {
    this.ownsDb = typeof options.database === "string";
    this.db = typeof options.database === "string" ? openFile(options.database) : options.database;
    this.embed = options.embed;
    this.vectorSearch = options.embed !== undefined;
    try {
      this.db.pragma(`busy_timeout = ${Math.max(0, Math.trunc(options.busyTimeoutMs ?? 5000))}`);
      this.db.pragma("journal_mode = WAL");
      this.db.pragma("synchronous = NORMAL");
      migrate(this.db);
    } catch (error) {
      if (this.ownsDb) this.db.close();
      throw toStoreError(error);
    }
  }

  async put(input: StrategyInput): Promise<StrategyRecord> {
    this.assertOpen();
    const prepared = await prepareStrategy(input, this.embed);
    return this.run(() => {
      const write = this.db.transaction(() => {
        const now = new Date().toISOString();
        const row = this.db
          .prepare("SELECT * FROM strategies WHERE scope = ? AND strategy_key = ?")
          .get(prepared.scope, prepared.key) as StrategyRow | undefined;
        if (row) {
          const merged = mergeRecord(rowToRecord(row), prepared, now);
          // Counters are left out on purpose: they only move through recordOutcome's SQL increment.
          this.db
            .prepare(
              `UPDATE strategies SET problem = ?, strategy = ?, correction = ?, next_step = ?, confidence = ?,
                 source = ?, tags = ?, embedding = ?, updated_at = ? WHERE seq = ?`,
            )
            .run(
              merged.problem,
              merged.strategy,
              merged.correction ?? null,
              merged.nextStep ?? null,
              merged.confidence,
              merged.source,
              JSON.stringify(merged.tags),
              encodeEmbedding(merged.embedding),
              merged.updatedAt,
              row.seq,
            );
          return { ...merged, uses: row.uses, successes: row.successes };
        }
        const record = newRecord(prepared, newId(), now);
        this.db
          .prepare(
            `INSERT INTO strategies (id, scope, strategy_key, problem, strategy, correction, next_step, confidence,
               source, tags, embedding, created_at, updated_at, uses, successes)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0)`,
          )
          .run(
            record.id,
            record.scope,
            prepared.key,
            record.problem,
            record.strategy,
            record.correction ?? null,
            record.nextStep ?? null,
            record.confidence,
            record.source,
            JSON.stringify(record.tags),
            encodeEmbedding(record.embedding),
            record.createdAt,
            record.updatedAt,
          );
        return record;
      });
      return write.immediate();
    });
  }

  async search(query: SearchQuery): Promise<StrategyHit[]> {
    this.assertOpen();
    const parsed = parseSearch(query);
    const queryVector = this.embed && parsed.query.trim() !== "" ? await embedOne(this.embed, parsed.query) : undefined;
    return this.run(() => {
      const pool = candidatePoolSize(parsed.k);
      // One read transaction: every statement below sees the same snapshot, whatever other processes write.
      const read = this.db.transaction(() => ({
        lexical: this.lexical(parsed.scope, parsed.query, pool),
        vector: queryVector ? this.nearest(parsed.scope, queryVector, pool) : undefined,
      }));
      const { lexical, vector } = read.deferred();
      return rankCandidates(parsed.query, lexical, vector, parsed);
    });
  }

  async recordOutcome(scope: string, id: string, success: boolean): Promise<StrategyRecord> {
    this.assertOpen();
    const args = [parseSuccess(success) ? 1 : 0, new Date().toISOString(), parseScope(scope), parseId(id)] as const;
    const row = this.run(() => {
      const bump = this.db.transaction(
        () =>
          this.db
            .prepare(
              `UPDATE strategies SET uses = uses + 1, successes = successes + ?, updated_at = ?
               WHERE scope = ? AND id = ? RETURNING *`,
            )
            .get(...args) as StrategyRow | undefined,
      );
      return bump.immediate();
    });
    if (!row) throw notFound();
    return rowToRecord(row);
  }

  async get(scope: string, id: string): Promise<StrategyRecord | undefined> {
    this.assertOpen();
    const args = [parseScope(scope), parseId(id)] as const;
    const row = this.run(
      () =>
        this.db.prepare("SELECT * FROM strategies WHERE scope = ? AND id = ?").get(...args) as StrategyRow | undefined,
    );
    return row ? rowToRecord(row) : undefined;
  }

  async list(query: ListQuery): Promise<StrategyPage> {
    this.assertOpen();
    const parsed = parseList(query);
    const after = decodeCursor(parsed.cursor) ?? "";
    const limit = parsed.limit ?? DEFAULT_LIST_LIMIT;
    const rows = this.run(
      () =>
        this.db
          .prepare("SELECT * FROM strategies WHERE scope = ? AND id > ? ORDER BY id LIMIT ?")
          .all(parsed.scope, after, limit + 1) as StrategyRow[],
    );
    const records = rows.slice(0, limit).map(rowToRecord);
    const last = records.at(-1);
    return rows.length > limit && last ? { records, nextCursor: encodeCursor(last.id) } : { records };
  }

  async delete(scope: string, id: string): Promise<boolean> {
    this.assertOpen();
    const args = [parseScope(scope), parseId(id)] as const;
    return this.run(
      () => this.db.prepare("DELETE FROM strategies WHERE scope = ? AND id = ?").run(...args).changes > 0,
    );
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.ownsDb) this.db.close();
  }

  private lexical(scope: string, query: string, pool: number): LexicalCandidate[] {
    const words = queryWords(query);
    if (words.length === 0) return [];
    // Every word becomes a quoted FTS5 string, so no FTS5 operator or column filter can get in.
    const match = words.map((word) => `"${word.replaceAll('"', '""')}"`).join(" OR ");
    // All of the scope's matches, unranked: ranking must use this scope's statistics only.
    const rows = this.db
      .prepare(
        `SELECT s.seq, s.problem, s.strategy, s.tags FROM strategies_fts JOIN strategies s ON s.seq = strategies_fts.rowid
         WHERE strategies_fts MATCH ? AND s.scope = ?`,
      )
      .all(match, scope) as Array<Pick<StrategyRow, "seq" | "problem" | "strategy" | "tags">>;
    if (rows.length === 0) return [];
    const stats = this.db
      .prepare(
        `SELECT COUNT(*) AS n, AVG(length(problem)) AS problem, AVG(length(strategy)) AS strategy, AVG(length(tags)) AS tags
         FROM strategies WHERE scope = ?`,
      )
      .get(scope) as { n: number; problem: number; strategy: number; tags: number };
    const terms = words.flatMap(scoringTerms);
    const top = scopeBm25(terms, rows, { n: stats.n, avg: stats })
      .filter((scored) => scored.score > 0)
      .sort((a, b) => b.score - a.score || a.doc.seq - b.doc.seq)
      .slice(0, pool);
    const read = this.db.prepare("SELECT * FROM strategies WHERE seq = ?");
    return top.map((scored) => ({ record: rowToRecord(read.get(scored.doc.seq) as StrategyRow), score: scored.score }));
  }

  // Brute force over the scope's vectors: SQLite has no vector index without an extension.
  private nearest(scope: string, queryVector: number[], pool: number): VectorCandidate[] {
    const rows = this.db
      .prepare("SELECT * FROM strategies WHERE scope = ? AND length(embedding) = ?")
      .all(scope, queryVector.length * 8) as StrategyRow[];
    return rows
      .map((row) => {
        const record = rowToRecord(row);
        return { record, similarity: cosineSimilarity(record.embedding!, queryVector) };
      })
      .sort((a, b) => b.similarity - a.similarity)
      .slice(0, pool);
  }

  private run<T>(body: () => T): T {
    this.assertOpen();
    try {
      return body();
    } catch (error) {
      throw toStoreError(error);
    }
  }

  private assertOpen(): void {
    if (this.closed) throw closedError();
  }
}

function openFile(path: string): Database.Database {
  try {
    return new Database(path);
  } catch (error) {
    throw new StrategyStoreError("backend", "the SQLite database could not be opened", { cause: error });
  }
}

function toStoreError(error: unknown): StrategyStoreError {
  if (error instanceof StrategyStoreError) return error;
  const code = (error as { code?: unknown }).code;
  if (code === "SQLITE_BUSY" || code === "SQLITE_LOCKED") {
    return new StrategyStoreError("busy", "the database stayed locked by another connection past busy_timeout", {
      cause: error,
    });
  }
  if (error instanceof TypeError && /connection is not open/i.test(error.message)) return closedError();
  return new StrategyStoreError("backend", `SQLite error${typeof code === "string" ? ` ${code}` : ""}`, {
    cause: error,
  });
}
