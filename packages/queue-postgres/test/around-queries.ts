import type pg from "pg";

/** Sends one `pool.query` call on, as it was made. */
export type SendQuery = (...args: unknown[]) => Promise<unknown>;

/**
 * Puts `around` in front of every `pool.query` call of `pool` (it decides whether and when to `send`
 * the call); returns the function that puts the pool back as it was.
 */
export function aroundQueries(pool: pg.Pool, around: (send: SendQuery, args: unknown[]) => Promise<unknown>) {
  const send = pool.query.bind(pool) as SendQuery;
  pool.query = ((...args: unknown[]) => around(send, args)) as typeof pool.query;
  return () => {
    pool.query = send as typeof pool.query;
  };
}
