import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import { StrategyStoreError } from "@x/strategy-store-core";
import {
  candidatePoolSize,
  closedError,
  cosineSimilarity,
  decodeCursor,
  DEFAULT_LIST_LIMIT,
  documentTerms,
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
  prepareBatch,
  rankCandidates,
  termsText,
} from "@x/strategy-store-core/backend";
import type {
  EmbedFn,
  ListQuery,
  SearchQuery,
  StrategyHit,
  StrategyInput,
  StrategyPage,
  StrategyRecord,
  StrategyStore,
  StrategyStoreOptions,
} from "@x/strategy-store-core";
import type { PreparedStrategy, VectorCandidate } from "@x/strategy-store-core/backend";
import { migrate } from "./migrations";
import { BATCH_MERGE_MIN } from "./pending-postings";
import { decodeEmbedding, encodeEmbedding, rowToRecord } from "./rows";
import type { StrategyRow } from "./rows";
import { encodeIndexed, RANKED_COLUMNS, rankedRow, SqliteLexicalIndex } from "./lexical-index";
import type { RankedRow } from "./lexical-index";

export interface SqliteStrategyStoreOptions extends StrategyStoreOptions {
  /** A database file path (":memory:" for a private in-memory database), or an open connection. */
  database: string | Database.Database;
  /** How long a writer waits for another connection's lock before failing with `busy` (default 5000 ms). */
  busyTimeoutMs?: number;
  /** SQLite page cache of this connection, in KiB (default 65,536: 64 MiB; at least 2,048). */
  cacheKiB?: number;
  /**
   * How much of the file SQLite reads through a memory map rather than read calls, in MiB (default
   * 2,047, SQLite's ceiling; 0 turns it off). On a busy machine a search that issues no read calls
   * waits less for a core; an I/O error on a mapped page then stops the process instead of failing a call.
   */
  mmapMiB?: number;
}

/** StrategyStore on one SQLite file: WAL, scope-local BM25F ranked in SQL, atomic counters, versioned migrations. */
export class SqliteStrategyStore implements StrategyStore {
  readonly vectorSearch: boolean;
  private readonly db: Database.Database;
  private readonly ownsDb: boolean;
  private readonly embed: EmbedFn | undefined;
  private readonly index: SqliteLexicalIndex;
  private readonly statements: ReturnType<typeof prepareStatements>;
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
      // The default 2 MiB page cache is smaller than the postings of a 10k-record scope; a search or
      // write then reads its pages back through the OS on every call.
      this.db.pragma(`cache_size = -${Math.max(2048, Math.trunc(options.cacheKiB ?? 65_536))}`);
      this.db.pragma(`mmap_size = ${Math.max(0, Math.trunc(options.mmapMiB ?? 2047)) * 1024 * 1024}`);
      migrate(this.db);
      this.index = new SqliteLexicalIndex(this.db);
      this.statements = prepareStatements(this.db);
    } catch (error) {
      if (this.ownsDb) this.db.close();
      throw toStoreError(error);
    }
  }

  async put(input: StrategyInput): Promise<StrategyRecord> {
    return (await this.putMany([input]))[0]!;
  }

  async putMany(inputs: readonly StrategyInput[]): Promise<StrategyRecord[]> {
    this.assertOpen();
    const prepared = await prepareBatch(inputs, this.embed);
    return this.run(() =>
      this.db
        .transaction(() => {
          const written = prepared.map((one) => this.write(one));
          // A batch merges a scope it left with many pending rows: the cost is spread over the batch,
          // and a loaded scope is not left with hundreds of rows for searches to read. A scope it
          // touched only lightly (a batch spread over many scopes) stays pending: merging each would
          // rewrite every term's newest block for one or two records.
          if (prepared.length > 1)
            for (const scope of new Set(written.map((one) => one.scope))) this.index.flush(scope, BATCH_MERGE_MIN);
          return written;
        })
        .immediate(),
    );
  }

  /** Inserts or merges one record and its postings; called inside a write transaction. */
  private write(prepared: PreparedStrategy): StrategyRecord {
    const now = new Date().toISOString();
    const scopeId = this.index.scopeForWrite(prepared.scope);
    const row = this.statements.byKey.get(prepared.scope, prepared.key);
    if (row) {
      const merged = mergeRecord(rowToRecord(row), prepared, now);
      const terms = documentTerms(merged);
      this.index.remove(scopeId, row.seq, row.indexed);
      // Counters are left out on purpose: they only move through recordOutcome's SQL increment.
      this.statements.rewrite.run(
        merged.problem,
        merged.strategy,
        merged.correction ?? null,
        merged.nextStep ?? null,
        merged.confidence,
        merged.source,
        JSON.stringify(merged.tags),
        encodeEmbedding(merged.embedding),
        merged.updatedAt,
        encodeIndexed(terms),
        termsText(terms),
        row.seq,
      );
      this.index.add(scopeId, row.seq, terms);
      return { ...merged, uses: row.uses, successes: row.successes };
    }
    const record = newRecord(prepared, newId(), now);
    const terms = documentTerms(record);
    const { lastInsertRowid } = this.statements.insert.run(
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
      encodeIndexed(terms),
      termsText(terms),
    );
    this.index.add(scopeId, Number(lastInsertRowid), terms);
    return record;
  }

  async search(query: SearchQuery): Promise<StrategyHit[]> {
    this.assertOpen();
    const parsed = parseSearch(query);
    const queryVector = this.embed && parsed.query.trim() !== "" ? await embedOne(this.embed, parsed.query) : undefined;
    return this.run(() => {
      const pool = candidatePoolSize(parsed.k);
      // One read transaction: every statement below sees the same snapshot, whatever other processes
      // write. Candidates are ranked in their light form; only the winners' rows are read whole.
      const read = this.db.transaction(() => {
        const lexical = this.index.search(parsed.scope, parsed.query, pool);
        const vector = queryVector ? this.nearest(parsed.scope, queryVector, pool) : undefined;
        return rankCandidates(parsed.query, lexical, vector, parsed).map((hit) => ({
          record: rowToRecord(this.statements.bySeq.get(hit.record.seq)!),
          score: hit.score,
        }));
      });
      return read.deferred();
    });
  }

  async recordOutcome(scope: string, id: string, success: boolean): Promise<StrategyRecord> {
    this.assertOpen();
    const args = [parseSuccess(success) ? 1 : 0, new Date().toISOString(), parseScope(scope), parseId(id)] as const;
    const row = this.run(() => {
      const bump = this.db.transaction(() => this.statements.bump.get(...args));
      return bump.immediate();
    });
    if (!row) throw notFound();
    return rowToRecord(row);
  }

  async get(scope: string, id: string): Promise<StrategyRecord | undefined> {
    this.assertOpen();
    const args = [parseScope(scope), parseId(id)] as const;
    const row = this.run(() => this.statements.byId.get(...args));
    return row ? rowToRecord(row) : undefined;
  }

  async list(query: ListQuery): Promise<StrategyPage> {
    this.assertOpen();
    const parsed = parseList(query);
    const after = decodeCursor(parsed.cursor) ?? "";
    const limit = parsed.limit ?? DEFAULT_LIST_LIMIT;
    const rows = this.run(() => this.statements.page.all(parsed.scope, after, limit + 1));
    const records = rows.slice(0, limit).map(rowToRecord);
    const last = records.at(-1);
    return rows.length > limit && last ? { records, nextCursor: encodeCursor(last.id) } : { records };
  }

  async delete(scope: string, id: string): Promise<boolean> {
    this.assertOpen();
    const args = [parseScope(scope), parseId(id)] as const;
    return this.run(() => {
      const remove = this.db.transaction(() => {
        const row = this.statements.remove.get(...args);
        if (row) this.index.remove(this.index.scopeForWrite(args[0]), row.seq, row.indexed);
        return row !== undefined;
      });
      return remove.immediate();
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.ownsDb) this.db.close();
  }

  // Brute force over the scope's vectors: SQLite has no vector index without an extension.
  private nearest(scope: string, queryVector: number[], pool: number): Array<VectorCandidate<RankedRow>> {
    return this.statements.vectors
      .all(scope, queryVector.length * 8)
      .map((row) => ({ row, similarity: cosineSimilarity(decodeEmbedding(row.embedding), queryVector) }))
      .sort((a, b) => b.similarity - a.similarity)
      .slice(0, pool)
      .map(({ row, similarity }) => ({ ...rankedRow(row), similarity }));
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

function prepareStatements(db: Database.Database) {
  return {
    byKey: db.prepare<[string, string], StrategyRow>("SELECT * FROM strategies WHERE scope = ? AND strategy_key = ?"),
    bySeq: db.prepare<[number], StrategyRow>("SELECT * FROM strategies WHERE seq = ?"),
    byId: db.prepare<[string, string], StrategyRow>("SELECT * FROM strategies WHERE scope = ? AND id = ?"),
    page: db.prepare<[string, string, number], StrategyRow>(
      "SELECT * FROM strategies WHERE scope = ? AND id > ? ORDER BY id LIMIT ?",
    ),
    insert: db.prepare(
      `INSERT INTO strategies (id, scope, strategy_key, problem, strategy, correction, next_step, confidence,
         source, tags, embedding, created_at, updated_at, uses, successes, indexed, terms)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0, ?, ?)`,
    ),
    rewrite: db.prepare(
      `UPDATE strategies SET problem = ?, strategy = ?, correction = ?, next_step = ?, confidence = ?,
         source = ?, tags = ?, embedding = ?, updated_at = ?, indexed = ?, terms = ? WHERE seq = ?`,
    ),
    bump: db.prepare<[number, string, string, string], StrategyRow>(
      `UPDATE strategies SET uses = uses + 1, successes = successes + ?, updated_at = ?
       WHERE scope = ? AND id = ? RETURNING *`,
    ),
    remove: db.prepare<[string, string], Pick<StrategyRow, "seq" | "indexed">>(
      "DELETE FROM strategies WHERE scope = ? AND id = ? RETURNING seq, indexed",
    ),
    vectors: db.prepare<[string, number], StrategyRow & { embedding: Buffer }>(
      `SELECT ${RANKED_COLUMNS}, embedding FROM strategies WHERE scope = ? AND length(embedding) = ?`,
    ),
  };
}

function openFile(path: string): Database.Database {
  try {
    // A path in a folder that does not exist yet (".x-agent/strategies.db") gets its folder, as a log file would.
    if (path !== ":memory:" && path !== "" && !path.startsWith("file:")) mkdirSync(dirname(path), { recursive: true });
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
