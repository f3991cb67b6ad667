import { createHash } from "node:crypto";
import pg from "pg";
import { StrategyStoreError } from "@x/strategy-store-core";

/** The query shape shared by `pg` (Pool, Client, PoolClient) and PGlite. */
export interface PgQueryable {
  query(text: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
}

/** A `pg.Pool`: hands out one connection per transaction. */
export interface PgPoolLike extends PgQueryable {
  connect(): Promise<PooledConnection>;
  readonly totalCount: number;
}

export interface PooledConnection extends PgQueryable {
  release(destroy?: boolean | Error): void;
  on?(event: "error", listener: (error: Error) => void): unknown;
  off?(event: "error", listener: (error: Error) => void): unknown;
}

/** PGlite (or anything with its `transaction`), which runs a transaction under its own lock. */
export interface PgTransactional extends PgQueryable {
  transaction<T>(body: (tx: PgQueryable) => Promise<T>): Promise<T>;
}

export type PgClient = PgQueryable | PgPoolLike | PgTransactional;

export interface Executor {
  query<T>(text: string, params?: unknown[]): Promise<T[]>;
  /** Runs `body` in one transaction on one connection; rolled back when it throws. */
  transaction<T>(body: (tx: Executor) => Promise<T>): Promise<T>;
}

export function executorFor(client: PgClient): Executor {
  if (typeof (client as PgTransactional).transaction === "function") {
    const db = client as PgTransactional & { closed?: boolean };
    // A closed PGlite fails with whatever its internals hit first; report what actually happened.
    const lost = (error: unknown) => {
      throw db.closed === true ? toStoreError(new Error("PGlite is closed")) : toStoreError(error);
    };
    return {
      query: <T>(text: string, params?: unknown[]) => queryRows<T>(db, text, params).catch(lost),
      transaction: (body) => db.transaction((tx) => body(single(tx))).catch(lost),
    };
  }
  if (typeof (client as PgPoolLike).totalCount === "number") {
    const pool = client as PgPoolLike;
    return {
      query: (text, params) => queryRows(pool, text, params),
      transaction: async (body) => {
        const connection = await pool.connect().catch((error: unknown) => {
          throw toStoreError(error);
        });
        // A server-side kill also surfaces as an 'error' event on the checked-out connection;
        // the failing query already reports it, so the event must not go unhandled.
        const ignore = () => undefined;
        connection.on?.("error", ignore);
        try {
          const result = await inTransaction(connection, body);
          connection.off?.("error", ignore);
          connection.release();
          return result;
        } catch (error) {
          connection.off?.("error", ignore);
          // A connection that failed mid-transaction is not reused.
          connection.release(true);
          throw error;
        }
      },
    };
  }
  // One plain connection: a statement sent while a transaction is open would join it (and roll
  // back with it), so every call, plain query or transaction, takes its turn.
  const db = client;
  let tail: Promise<unknown> = Promise.resolve();
  const inTurn = <T>(work: () => Promise<T>): Promise<T> => {
    const run = tail.then(work);
    tail = run.catch(() => undefined);
    return run;
  };
  return {
    query: (text, params) => inTurn(() => queryRows(db, text, params)),
    transaction: (body) => inTurn(() => inTransaction(db, body)),
  };
}

function single(db: PgQueryable): Executor {
  return {
    query: (text, params) => queryRows(db, text, params),
    transaction: (body) => body(single(db)),
  };
}

async function inTransaction<T>(db: PgQueryable, body: (tx: Executor) => Promise<T>): Promise<T> {
  await queryRows(db, "BEGIN");
  try {
    const result = await body(single(db));
    await queryRows(db, "COMMIT");
    return result;
  } catch (error) {
    await db.query("ROLLBACK").catch(() => undefined);
    throw error;
  }
}

async function queryRows<T>(db: PgQueryable, text: string, params?: unknown[]): Promise<T[]> {
  try {
    const result =
      params !== undefined && (db instanceof pg.Pool || db instanceof pg.Client)
        ? await db.query({ name: statementName(text), text, values: params })
        : await db.query(text, params);
    return result.rows as T[];
  } catch (error) {
    throw toStoreError(error);
  }
}

// `pg` prepares a named statement once per connection and reuses its plan, which saves the
// planning a search or write would otherwise repeat every time. The name stands for the text.
const names = new Map<string, string>();
function statementName(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    name = `x_strategy_${createHash("sha256").update(text).digest("hex").slice(0, 24)}`;
    names.set(text, name);
  }
  return name;
}

const CONNECTION_CODES = new Set([
  "57P01",
  "57P02",
  "57P03",
  "ECONNRESET",
  "ECONNREFUSED",
  "EPIPE",
  "ETIMEDOUT",
  "ENOTCONN",
]);
const CONNECTION_MESSAGES = new RegExp(
  [
    "connection terminated",
    "not queryable",
    "connection (?:was )?closed",
    "pglite is closed",
    "closed and cannot be used",
    "socket hang up",
    "cannot use a pool after calling end",
  ].join("|"),
  "i",
);

/**
 * A connection that was never made: nothing listens there, the host has no address, or the server
 * refused to start a session (SQLSTATE 08001/08004). Said as such, not as a connection "lost".
 */
const UNREACHABLE_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "08001",
  "08004",
]);

/** Driver failures become typed errors whose message carries an SQLSTATE at most, never row data. */
export function toStoreError(error: unknown): StrategyStoreError {
  if (error instanceof StrategyStoreError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  if (typeof code === "string" && UNREACHABLE_CODES.has(code)) {
    return new StrategyStoreError(
      "connection_lost",
      `could not connect to the database (${code}): is PostgreSQL running at that address? ` +
        "The operation was not applied",
      { cause: error },
    );
  }
  if (
    (typeof code === "string" && (CONNECTION_CODES.has(code) || code.startsWith("08"))) ||
    CONNECTION_MESSAGES.test(message)
  ) {
    return new StrategyStoreError(
      "connection_lost",
      "the database connection was lost; the operation was not applied",
      {
        cause: error,
      },
    );
  }
  return new StrategyStoreError("backend", `PostgreSQL error${typeof code === "string" ? ` ${code}` : ""}`, {
    cause: error,
  });
}
