import type { RunCheckpointSegment } from "@x/runner/backend";
import type { Pool } from "pg";
import { eventTexts, insertEvents, type TaskEvent } from "./task-events";

/**
 * A task's checkpoint chain in `task_turns`: one row per link, written fenced by the task's lease
 * like every other write of a worker. A link costs what its turn added — the bytes and the
 * statement do not depend on how long the run is.
 */
export interface TaskTurns {
  /**
   * Appends a link (`json`: its text, as the runner signed it) while `workerId` holds the task, and
   * `events` (in order) to its `task_events` in the same statement: what a turn tells is written
   * exactly when the turn is, in one round trip.
   * Link 0 replaces the chain before it and marks the task as having made progress (its take count
   * back to 1). False when the lease is gone: nothing was written.
   */
  append(
    taskId: string,
    workerId: string,
    link: RunCheckpointSegment,
    json: string,
    events?: readonly TaskEvent[],
  ): Promise<boolean>;
  /** The task's chain in order; empty when it has none. */
  read(taskId: string): Promise<RunCheckpointSegment[]>;
}

export function taskTurns(pool: Pool, schema: string): TaskTurns {
  const tasks = `${schema}.tasks`;
  const turns = `${schema}.task_turns`;
  const told = (events: string) => `told AS (${insertEvents(schema, "held", events)})`;
  // Link 0 is the first a take writes (a continued run starts its own chain): it marks the take as
  // having made progress and replaces the chain before. Upserted, with the old chain's later links
  // deleted — rows apart from the one inserted, so one statement does both.
  const start = {
    name: `x-queue-turn-start:${schema}`,
    text: `WITH held AS (
        UPDATE ${tasks} SET attempts = 1, updated_at = now() WHERE id = $1 AND lease_owner = $2 RETURNING id),
      gone AS (DELETE FROM ${turns} WHERE task_id IN (SELECT id FROM held) AND seq > 0),
      ${told("$4")}
      INSERT INTO ${turns} (task_id, seq, link) SELECT id, 0, $3 FROM held
      ON CONFLICT (task_id, seq) DO UPDATE SET link = EXCLUDED.link`,
  };
  // A later link only checks the lease: `FOR SHARE` makes a takeover wait for this insert, and
  // leaves the task row as it is (no new row version per turn). Prepared once per connection.
  const next = {
    name: `x-queue-turn-next:${schema}`,
    text: `WITH held AS (SELECT id FROM ${tasks} WHERE id = $1 AND lease_owner = $2 FOR SHARE),
      ${told("$5")}
      INSERT INTO ${turns} (task_id, seq, link) SELECT id, $3, $4 FROM held`,
  };
  return {
    async append(taskId, workerId, link, json, events = []) {
      const said = eventTexts(events);
      // Each query's fields written out: on Node 20 `values` added after a spread of the prepared
      // statement would cost a new hidden class per link.
      const written =
        link.seq === 0
          ? await pool.query({ name: start.name, text: start.text, values: [taskId, workerId, json, said] })
          : await pool.query({ name: next.name, text: next.text, values: [taskId, workerId, link.seq, json, said] });
      return written.rowCount === 1;
    },
    async read(taskId) {
      const found = await pool.query<{ link: RunCheckpointSegment }>(
        `SELECT link FROM ${turns} WHERE task_id = $1 ORDER BY seq`,
        [taskId],
      );
      return found.rows.map((row) => row.link);
    },
  };
}
