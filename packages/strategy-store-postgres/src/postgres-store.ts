import {
  candidatePoolSize,
  closedError,
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
  recordFromRow,
  StrategyStoreError,
} from "@x/strategy-store-core";
import type {
  EmbedFn,
  ListQuery,
  PreparedStrategy,
  SearchQuery,
  StrategyHit,
  StrategyInput,
  StrategyPage,
  StrategyRecord,
  StrategyStore,
  StrategyStoreOptions,
} from "@x/strategy-store-core";
import pg from "pg";
import { executorFor } from "./connection";
import type { Executor, PgClient } from "./connection";
import { migrate, tablesFor } from "./migrations";
import type { Tables } from "./migrations";
import { RECORD_COLUMNS, vectorLiteral } from "./rows";
import type { StrategyRow } from "./rows";

export interface PostgresStrategyStoreOptions extends StrategyStoreOptions {
  /** A `pg.Pool` (recommended), a single `pg.Client`, or a PGlite instance. Not closed by `close()`. */
  client?: PgClient;
  /** Or a connection string: the store makes (and on close ends) its own Pool. */
  connectionString?: string;
  /** Schema for the tables (created if missing); default "public". */
  schema?: string;
  /** Use pgvector when the extension exists and `embed` is set (default true). */
  vector?: boolean;
}

const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/** StrategyStore on PostgreSQL: tsvector + GIN + ts_rank, pgvector when present, row-level atomic counters. */
export class PostgresStrategyStore implements StrategyStore {
  private closed = false;

  private constructor(
    private readonly db: Executor,
    private readonly tables: Tables,
    private readonly embed: EmbedFn | undefined,
    /** Schema of the pgvector extension when vector search is on. */
    private readonly vectorSchema: string | undefined,
    private readonly ownedPool: pg.Pool | undefined,
  ) {}

  get vectorSearch(): boolean {
    return this.vectorSchema !== undefined;
  }

  /** Connects, runs pending migrations, and detects pgvector. */
  static async open(options: PostgresStrategyStoreOptions): Promise<PostgresStrategyStore> {
    const schema = options.schema ?? "public";
    if (!SCHEMA_NAME.test(schema)) {
      throw new StrategyStoreError("invalid_input", "invalid schema: must be a plain SQL identifier", {
        fields: ["schema"],
      });
    }
    let ownedPool: pg.Pool | undefined;
    let client = options.client;
    if (!client) {
      if (options.connectionString === undefined) {
        throw new StrategyStoreError("invalid_input", "invalid options: give a client or a connectionString", {
          fields: ["client"],
        });
      }
      ownedPool = new pg.Pool({ connectionString: options.connectionString });
      // An idle connection killed by the server must not crash the host with an unhandled 'error'.
      ownedPool.on("error", () => undefined);
      client = ownedPool;
    }
    const db = executorFor(client);
    const tables = tablesFor(schema);
    try {
      const wantVector = options.embed !== undefined && options.vector !== false;
      const vectorSchema = await migrate(db, tables, wantVector);
      return new PostgresStrategyStore(db, tables, options.embed, vectorSchema, ownedPool);
    } catch (error) {
      await ownedPool?.end().catch(() => undefined);
      throw error;
    }
  }

  async put(input: StrategyInput): Promise<StrategyRecord> {
    this.assertOpen();
    const prepared = await prepareStrategy(input, this.embed);
    this.assertOpen();
    // A row deleted between the conflict and the lock sends us round again.
    for (let attempt = 0; ; attempt++) {
      const record = await this.db.transaction((tx) => this.upsert(tx, prepared));
      if (record || attempt >= 3) {
        if (!record) throw new StrategyStoreError("backend", "the strategy kept changing under a concurrent writer");
        return record;
      }
    }
  }

  private async upsert(tx: Executor, prepared: PreparedStrategy): Promise<StrategyRecord | undefined> {
    const t = this.tables.strategies;
    const now = new Date().toISOString();
    const fresh = newRecord(prepared, newId(), now);
    const vec = this.vectorSchema === undefined ? "" : `, embedding_vec`;
    const vecValue = this.vectorSchema === undefined ? "" : `, $15::"${this.vectorSchema}".vector`;
    const params = [
      fresh.id,
      fresh.scope,
      prepared.key,
      fresh.problem,
      fresh.strategy,
      fresh.correction ?? null,
      fresh.nextStep ?? null,
      fresh.confidence,
      fresh.source,
      fresh.tags,
      fresh.embedding ?? null,
      now,
      now,
      0,
      ...(this.vectorSchema === undefined ? [] : [fresh.embedding ? vectorLiteral(fresh.embedding) : null]),
    ];
    const inserted = await tx.query<StrategyRow>(
      `INSERT INTO ${t} (id, scope, strategy_key, problem, strategy, correction, next_step, confidence, source, tags,
         embedding, created_at, updated_at, uses, successes${vec})
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $14${vecValue})
       ON CONFLICT (scope, strategy_key) DO NOTHING RETURNING ${RECORD_COLUMNS}`,
      params,
    );
    if (inserted[0]) return recordFromRow(inserted[0]);

    const [locked] = await tx.query<StrategyRow>(
      `SELECT ${RECORD_COLUMNS} FROM ${t} WHERE scope = $1 AND strategy_key = $2 FOR UPDATE`,
      [prepared.scope, prepared.key],
    );
    if (!locked) return undefined;
    const merged = mergeRecord(recordFromRow(locked), prepared, now);
    // Counters are not written here: only recordOutcome's in-SQL increment moves them.
    const [updated] = await tx.query<StrategyRow>(
      `UPDATE ${t} SET problem = $2, strategy = $3, correction = $4, next_step = $5, confidence = $6, source = $7,
         tags = $8, embedding = $9, updated_at = $10${this.vectorSchema === undefined ? "" : `, embedding_vec = $11::"${this.vectorSchema}".vector`}
       WHERE id = $1 RETURNING ${RECORD_COLUMNS}`,
      [
        merged.id,
        merged.problem,
        merged.strategy,
        merged.correction ?? null,
        merged.nextStep ?? null,
        merged.confidence,
        merged.source,
        merged.tags,
        merged.embedding ?? null,
        now,
        ...(this.vectorSchema === undefined ? [] : [merged.embedding ? vectorLiteral(merged.embedding) : null]),
      ],
    );
    return updated ? recordFromRow(updated) : undefined;
  }

  async search(query: SearchQuery): Promise<StrategyHit[]> {
    this.assertOpen();
    const parsed = parseSearch(query);
    const queryVector =
      this.embed && this.vectorSchema !== undefined && parsed.query.trim() !== ""
        ? await embedOne(this.embed, parsed.query)
        : undefined;
    this.assertOpen();
    const pool = candidatePoolSize(parsed.k);
    const t = this.tables.strategies;
    const words = queryWords(parsed.query);
    // Words are letters and digits only; each is quoted as a tsquery lexeme and OR-ed.
    const lexical =
      words.length === 0
        ? []
        : (
            await this.db.query<StrategyRow & { lexical_score: number }>(
              `SELECT ${RECORD_COLUMNS}, ts_rank(tsv, q) AS lexical_score
               FROM ${t}, to_tsquery('english', $2) AS q
               WHERE scope = $1 AND tsv @@ q
               ORDER BY lexical_score DESC, id LIMIT $3`,
              [parsed.scope, words.map((word) => `'${word}'`).join(" | "), pool],
            )
          ).map((row) => ({ record: recordFromRow(row), score: Number(row.lexical_score) }));
    const vector = queryVector
      ? (
          await this.db.query<StrategyRow & { similarity: number }>(
            `SELECT ${RECORD_COLUMNS}, 1 - (embedding_vec OPERATOR("${this.vectorSchema}".<=>) $2::"${this.vectorSchema}".vector) AS similarity
             FROM ${t}
             WHERE scope = $1 AND embedding_vec IS NOT NULL AND "${this.vectorSchema}".vector_dims(embedding_vec) = $3
             ORDER BY embedding_vec OPERATOR("${this.vectorSchema}".<=>) $2::"${this.vectorSchema}".vector LIMIT $4`,
            [parsed.scope, vectorLiteral(queryVector), queryVector.length, pool],
          )
        ).map((row) => ({ record: recordFromRow(row), similarity: Number(row.similarity) }))
      : undefined;
    return rankCandidates(parsed.query, lexical, vector, parsed);
  }

  async recordOutcome(scope: string, id: string, success: boolean): Promise<StrategyRecord> {
    this.assertOpen();
    const params = [parseScope(scope), parseId(id), parseSuccess(success) ? 1 : 0, new Date().toISOString()];
    const [row] = await this.db.query<StrategyRow>(
      `UPDATE ${this.tables.strategies} SET uses = uses + 1, successes = successes + $3, updated_at = $4
       WHERE scope = $1 AND id = $2 RETURNING ${RECORD_COLUMNS}`,
      params,
    );
    if (!row) throw notFound();
    return recordFromRow(row);
  }

  async get(scope: string, id: string): Promise<StrategyRecord | undefined> {
    this.assertOpen();
    const params = [parseScope(scope), parseId(id)];
    const [row] = await this.db.query<StrategyRow>(
      `SELECT ${RECORD_COLUMNS} FROM ${this.tables.strategies} WHERE scope = $1 AND id = $2`,
      params,
    );
    return row ? recordFromRow(row) : undefined;
  }

  async list(query: ListQuery): Promise<StrategyPage> {
    this.assertOpen();
    const parsed = parseList(query);
    const after = decodeCursor(parsed.cursor) ?? "";
    const limit = parsed.limit ?? DEFAULT_LIST_LIMIT;
    const rows = await this.db.query<StrategyRow>(
      `SELECT ${RECORD_COLUMNS} FROM ${this.tables.strategies} WHERE scope = $1 AND id > $2 ORDER BY id LIMIT $3`,
      [parsed.scope, after, limit + 1],
    );
    const records = rows.slice(0, limit).map((row) => recordFromRow(row));
    const last = records.at(-1);
    return rows.length > limit && last ? { records, nextCursor: encodeCursor(last.id) } : { records };
  }

  async delete(scope: string, id: string): Promise<boolean> {
    this.assertOpen();
    const params = [parseScope(scope), parseId(id)];
    const rows = await this.db.query(
      `DELETE FROM ${this.tables.strategies} WHERE scope = $1 AND id = $2 RETURNING id`,
      params,
    );
    return rows.length > 0;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.ownedPool?.end().catch(() => undefined);
  }

  private assertOpen(): void {
    if (this.closed) throw closedError();
  }
}
