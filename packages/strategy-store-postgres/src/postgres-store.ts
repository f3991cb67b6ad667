import { StrategyStoreError } from "@x/strategy-store-core";
import {
  candidatePoolSize,
  closedError,
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
  indexedForm,
  rankedFieldsFromRow,
  recordFromRow,
  termsFromText,
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
import type { PreparedStrategy } from "@x/strategy-store-core/backend";
import pg from "pg";
import { executorFor } from "./connection";
import type { Executor, PgClient } from "./connection";
import { migrate, tablesFor } from "./migrations";
import type { Tables } from "./migrations";
import { PostgresLexicalIndex } from "./lexical-index";
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

/**
 * StrategyStore on PostgreSQL: exact scope-local BM25F over postings read along an index, pgvector
 * when present, row-level atomic counters.
 */
export class PostgresStrategyStore implements StrategyStore {
  private closed = false;

  private constructor(
    private readonly db: Executor,
    private readonly tables: Tables,
    private readonly embed: EmbedFn | undefined,
    /** Schema of the pgvector extension when vector search is on. */
    private readonly vectorSchema: string | undefined,
    private readonly ownedPool: pg.Pool | undefined,
  ) {
    this.index = new PostgresLexicalIndex(tables);
  }

  private readonly index: PostgresLexicalIndex;

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
    return (await this.write([input], false))[0]!;
  }

  async putMany(inputs: readonly StrategyInput[]): Promise<StrategyRecord[]> {
    return this.write(inputs, true);
  }

  /**
   * A lone put that inserts is one statement in its own implicit transaction: one round trip. A
   * batch, or a put that must merge into an existing record, runs in an explicit transaction.
   */
  private async write(inputs: readonly StrategyInput[], batch: boolean): Promise<StrategyRecord[]> {
    this.assertOpen();
    const prepared = await prepareBatch(inputs, this.embed);
    this.assertOpen();
    if (prepared.length === 0) return [];
    // A row deleted between the conflict and the lock, or a deadlock with a writer that touched
    // the same keys in another order, sends the whole batch round again.
    for (let attempt = 0; ; attempt++) {
      try {
        if (!batch) {
          const written = await this.insertNew(this.db, prepared);
          if (written.every((record) => record !== undefined)) return written;
        }
        return await this.db.transaction((tx) => this.writeBatch(tx, prepared));
      } catch (error) {
        if (attempt >= 3 || !retryable(error)) throw error;
      }
    }
  }

  /** Inserts what is new and merges the rest, in input order. */
  private async writeBatch(tx: Executor, prepared: readonly PreparedStrategy[]): Promise<StrategyRecord[]> {
    const now = new Date().toISOString();
    const inserted = await this.insertNew(tx, prepared, now);
    const records: StrategyRecord[] = [];
    for (const [i, one] of prepared.entries()) records.push(inserted[i] ?? (await this.merge(tx, one, now)));
    return records;
  }

  /**
   * Inserts, and indexes, in one statement every input whose key the scope does not hold yet; the
   * others (undefined in the result) are left for `merge`.
   */
  private async insertNew(
    db: Executor,
    prepared: readonly PreparedStrategy[],
    now = new Date().toISOString(),
  ): Promise<Array<StrategyRecord | undefined>> {
    const t = this.tables.strategies;
    const fresh = prepared.map((one) => newRecord(one, newId(), now));
    const terms = fresh.map((record) => documentTerms(record));
    const vector = this.vectorSchema === undefined ? undefined : `"${this.vectorSchema}".vector`;
    const insert =
      `INSERT INTO ${t} (id, scope, strategy_key, problem, strategy, correction, next_step,
         confidence, source, tags, embedding, created_at, updated_at, uses, successes, indexed, terms
         ${vector ? ", embedding_vec" : ""})
       SELECT u.id, u.scope, u.strategy_key, u.problem, u.strategy, u.correction, u.next_step, u.confidence, u.source,
         ARRAY(SELECT jsonb_array_elements_text(u.tags)), ${jsonFloats("u.embedding")}, $12, $12, 0, 0, ` +
      `u.indexed, u.terms
         ${vector ? `, (${jsonFloats("u.embedding")})::${vector}` : ""}
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::smallint[],
         $9::text[], $10::jsonb[], $11::jsonb[], $13::jsonb[], $14::text[]) WITH ORDINALITY
         AS u(id, scope, strategy_key, problem, strategy, correction, next_step, confidence, source, tags, ` +
      `embedding, indexed, terms, ord)
       ORDER BY u.ord
       ON CONFLICT (scope, strategy_key) DO NOTHING RETURNING ${RECORD_COLUMNS}, seq`;
    const ids = fresh.map((r) => r.id);
    const indexing = this.index.insertAndIndex(insert, 15, ids, terms);
    const inserted = await db.query<StrategyRow & { seq: string }>(indexing.sql, [
      ids,
      fresh.map((r) => r.scope),
      prepared.map((p) => p.key),
      fresh.map((r) => r.problem),
      fresh.map((r) => r.strategy),
      fresh.map((r) => r.correction ?? null),
      fresh.map((r) => r.nextStep ?? null),
      fresh.map((r) => r.confidence),
      fresh.map((r) => r.source),
      fresh.map((r) => JSON.stringify(r.tags)),
      fresh.map((r) => (r.embedding ? JSON.stringify(r.embedding) : null)),
      now,
      terms.map((one) => JSON.stringify(indexedForm(one))),
      terms.map((one) => termsText(one)),
      ...indexing.params,
    ]);
    const rowById = new Map(inserted.map((row) => [row.id, row]));
    return fresh.map((record) => {
      const row = rowById.get(record.id);
      return row ? recordFromRow(row) : undefined;
    });
  }

  private async merge(tx: Executor, prepared: PreparedStrategy, now: string): Promise<StrategyRecord> {
    const t = this.tables.strategies;
    const [locked] = await tx.query<StrategyRow & { seq: string; indexed: unknown }>(
      `SELECT ${RECORD_COLUMNS}, seq, indexed FROM ${t} WHERE scope = $1 AND strategy_key = $2 FOR UPDATE`,
      [prepared.scope, prepared.key],
    );
    if (!locked)
      throw new StrategyStoreError("backend", "the strategy kept changing under a concurrent writer", {
        cause: RETRY,
      });
    const merged = mergeRecord(recordFromRow(locked), prepared, now);
    const terms = documentTerms(merged);
    // Counters are not written here: only recordOutcome's in-SQL increment moves them.
    const [updated] = await tx.query<StrategyRow>(
      `UPDATE ${t} SET problem = $2, strategy = $3, correction = $4, next_step = $5, confidence = $6, source = $7,
         tags = $8, embedding = $9, updated_at = $10, indexed = $11, terms = $12` +
        `${this.vectorSchema === undefined ? "" : `, embedding_vec = $13::"${this.vectorSchema}".vector`}
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
        JSON.stringify(indexedForm(terms)),
        termsText(terms),
        ...(this.vectorSchema === undefined ? [] : [merged.embedding ? vectorLiteral(merged.embedding) : null]),
      ],
    );
    await this.index.remove(tx, [{ scope: locked.scope, seq: locked.seq, indexed: locked.indexed }]);
    await this.index.add(tx, [{ scope: locked.scope, seq: locked.seq, terms }]);
    return recordFromRow(updated);
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
    // Candidates are ranked in a light form; only the winners' rows are read into records.
    const lexical = (await this.index.search(this.db, parsed.scope, parsed.query, pool)).map(({ row, score }) => ({
      ...lightCandidate(row),
      score,
    }));
    const vector = queryVector
      ? (
          await this.db.query<StrategyRow & { terms: string; similarity: number }>(
            `SELECT ${RECORD_COLUMNS}, terms, ` +
              `1 - (embedding_vec OPERATOR("${this.vectorSchema}".<=>) $2::"${this.vectorSchema}".vector) AS similarity
             FROM ${t}
             WHERE scope = $1 AND embedding_vec IS NOT NULL AND "${this.vectorSchema}".vector_dims(embedding_vec) = $3
             ORDER BY embedding_vec OPERATOR("${this.vectorSchema}".<=>) $2::"${this.vectorSchema}".vector LIMIT $4`,
            [parsed.scope, vectorLiteral(queryVector), queryVector.length, pool],
          )
        ).map((row) => ({ ...lightCandidate(row), similarity: Number(row.similarity) }))
      : undefined;
    return rankCandidates(parsed.query, lexical, vector, parsed).map((hit) => ({
      record: recordFromRow(hit.record.row),
      score: hit.score,
    }));
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
    return this.db.transaction(async (tx) => {
      const [row] = await tx.query<{ seq: string; indexed: unknown }>(
        `DELETE FROM ${this.tables.strategies} WHERE scope = $1 AND id = $2 RETURNING seq, indexed`,
        params,
      );
      if (row) await this.index.remove(tx, [{ scope: params[0]!, seq: row.seq, indexed: row.indexed }]);
      return row !== undefined;
    });
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

/** A search candidate: what ranking reads, its terms, and the row to read whole if it wins. */
function lightCandidate(row: StrategyRow & { terms: string }) {
  return { record: { ...rankedFieldsFromRow(row), row }, terms: termsFromText(row.terms) };
}

/** Marks a transaction that must run again from the start (see `putMany`). */
const RETRY = Symbol("retry");

function retryable(error: unknown): boolean {
  const cause = (error as { cause?: unknown } | null)?.cause;
  const code = (cause as { code?: unknown } | null)?.code;
  return cause === RETRY || code === "40P01" || code === "40001";
}

/** A jsonb array of numbers as double precision[], in order; SQL NULL for a JSON null. */
function jsonFloats(column: string): string {
  return (
    `CASE WHEN ${column} IS NULL OR jsonb_typeof(${column}) = 'null' THEN NULL ELSE ARRAY(
    SELECT e.value::float8 FROM jsonb_array_elements_text(${column}) ` +
    `WITH ORDINALITY AS e(value, ord) ORDER BY e.ord) END`
  );
}
