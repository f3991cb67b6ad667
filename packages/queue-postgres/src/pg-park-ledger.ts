import type { ToolResultMessage } from "@x/llm-types";
import type { ParkClaim, ParkLedger } from "@x/runner/backend";
import { schemaName, type Queryable } from "./sql";

export interface PostgresParkLedgerOptions {
  /** The pool (or client) the ledger writes through. */
  db: Queryable;
  /** Schema of the queue's tables (`ensureSchema` made them). Default `x_queue`. */
  schema?: string;
  /** Who claims: a worker id, kept on the row for whoever investigates. */
  owner: string;
  /**
   * How long a claim or an execution holds without renewal. While a call executes the ledger
   * renews it every third of this, so only a dead process lets it lapse. Default 30 000 ms.
   */
  leaseMs?: number;
}

/** A park ledger that also reports the rows it keeps renewing, so a host can stop cleanly. */
export interface PostgresParkLedger extends ParkLedger {
  /** Stops renewing every lease this ledger holds (their rows lapse if the process then dies). */
  close(): void;
}

/**
 * At most once across every process on one PostgreSQL, with the call's life on the row:
 * `claimed` (a lease: a resume that dies before the call starts lapses and is claimed again),
 * `executing` (renewed while the call runs: a lapse here means the process died mid-call, and the
 * claim answers `unknown_outcome` — a person or the host's reconcile step says what happened), and
 * `done` with the result (a resume that died after the call replays the result, never the call),
 * then settled once the resumed run moved on (every later claim is `replayed`, so a finished run
 * resumed again, or a denied call approved later, runs nothing).
 */
export function createPostgresParkLedger(options: PostgresParkLedgerOptions): PostgresParkLedger {
  const table = `${schemaName(options.schema ?? "x_queue")}.park_calls`;
  const leaseMs = options.leaseMs ?? 30_000;
  const renewals = new Map<string, NodeJS.Timeout>();
  const { db, owner } = options;

  const renew = (parkId: string) => {
    const timer = setInterval(() => {
      db.query(
        `UPDATE ${table} SET lease_until = now() + $3 * interval '1 millisecond'
         WHERE park_id = $1 AND owner = $2 AND state = 'executing'`,
        [parkId, owner, leaseMs],
      ).catch(() => undefined);
    }, leaseMs / 3);
    timer.unref();
    renewals.set(parkId, timer);
  };
  const stopRenewing = (parkId: string) => {
    clearInterval(renewals.get(parkId));
    renewals.delete(parkId);
  };

  return {
    async claim(parkId): Promise<ParkClaim> {
      const granted = await db.query(
        `INSERT INTO ${table} (park_id, state, owner, lease_until)
         VALUES ($1, 'claimed', $2, now() + $3 * interval '1 millisecond')
         ON CONFLICT (park_id) DO UPDATE SET owner = $2, lease_until = EXCLUDED.lease_until, claimed_at = now()
           WHERE ${table}.state = 'claimed' AND ${table}.lease_until < now()
         RETURNING park_id`,
        [parkId, owner, leaseMs],
      );
      if (granted.rowCount === 1) return { status: "granted" };
      // An execution whose lease lapsed is a process that died mid-call: say so on the row, once,
      // so every later claim (and a person looking at the table) sees the same answer.
      const lapsed = await db.query(
        `UPDATE ${table} SET state = 'unknown_outcome'
         WHERE park_id = $1 AND state = 'executing' AND lease_until < now() RETURNING park_id`,
        [parkId],
      );
      if (lapsed.rowCount === 1) return { status: "refused", reason: "unknown_outcome" };
      const row = await db.query<{ state: string; result: ToolResultMessage | null; settled: boolean }>(
        `SELECT state, result, settled_at IS NOT NULL AS settled FROM ${table} WHERE park_id = $1`,
        [parkId],
      );
      const found = row.rows[0];
      if (found?.state === "done" && found.settled) return { status: "refused", reason: "replayed" };
      if (found?.state === "done" && found.result) return { status: "recorded", result: found.result };
      if (found?.state === "unknown_outcome") return { status: "refused", reason: "unknown_outcome" };
      return { status: "refused", reason: "in_progress" };
    },
    async executing(parkId) {
      const moved = await db.query(
        `UPDATE ${table} SET state = 'executing', executing_at = now(),
           lease_until = now() + $3 * interval '1 millisecond'
         WHERE park_id = $1 AND owner = $2 AND state = 'claimed' RETURNING park_id`,
        [parkId, owner, leaseMs],
      );
      // Lost the claim meanwhile (this process stalled past its lease and another took it over):
      // running the call now could run it twice, so the resume stops here.
      if (moved.rowCount !== 1) throw new Error(`park ${parkId} is no longer claimed by ${owner}`);
      renew(parkId);
    },
    async executed(parkId, result) {
      stopRenewing(parkId);
      // Fenced like `executing`: once another process found this execution's lease lapsed and said
      // `unknown_outcome`, the decision is a person's, and a late word from this process would
      // contradict what they are told (or settle after they did).
      const recorded = await db.query(
        `UPDATE ${table} SET state = 'done', done_at = now(), result = $3
         WHERE park_id = $1 AND owner = $2 AND state IN ('claimed', 'executing') RETURNING park_id`,
        [parkId, owner, JSON.stringify(result)],
      );
      if (recorded.rowCount !== 1) {
        throw new Error(`park ${parkId}: ${owner} no longer holds it, so its result is not recorded`);
      }
    },
    async settled(parkId) {
      // The run moved on past the call: a later resume of this park would run the rest again.
      const moved = await db.query(
        `UPDATE ${table} SET settled_at = now()
         WHERE park_id = $1 AND owner = $2 AND state = 'done' RETURNING park_id`,
        [parkId, owner],
      );
      if (moved.rowCount !== 1) throw new Error(`park ${parkId}: ${owner} holds no recorded result to settle`);
    },
    close() {
      for (const parkId of [...renewals.keys()]) stopRenewing(parkId);
    },
  };
}
