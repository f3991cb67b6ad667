import type { RunCheckpointSegment } from "@x/runner/backend";
import type { Pool } from "pg";

/**
 * A task's checkpoint chain in `task_turns`: one row per link, written fenced by the task's lease
 * like every other write of a worker. A link costs what its turn added — the bytes and the
 * statement do not depend on how long the run is.
 */
export interface TaskTurns {
  /**
   * Appends a link while `workerId` holds the task, and marks the task as having made progress
   * (its take count back to 1). Link 0 replaces the chain before it, in one transaction. False
   * when the lease is gone: nothing was written.
   */
  append(taskId: string, workerId: string, link: RunCheckpointSegment): Promise<boolean>;
  /** The task's chain in order; empty when it has none. */
  read(taskId: string): Promise<RunCheckpointSegment[]>;
}

export function taskTurns(pool: Pool, schema: string): TaskTurns {
  const tasks = `${schema}.tasks`;
  const turns = `${schema}.task_turns`;
  // One statement: the lease check locks the task row, so a takeover waits for this insert.
  const appendSql = `WITH held AS (
      UPDATE ${tasks} SET attempts = 1, updated_at = now() WHERE id = $1 AND lease_owner = $2 RETURNING id)
    INSERT INTO ${turns} (task_id, seq, link) SELECT id, $3, $4 FROM held`;
  const startChain = async (taskId: string, workerId: string, link: string): Promise<boolean> => {
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      const held = await client.query(
        `UPDATE ${tasks} SET attempts = 1, updated_at = now() WHERE id = $1 AND lease_owner = $2 RETURNING id`,
        [taskId, workerId],
      );
      if (held.rowCount !== 1) {
        await client.query("ROLLBACK");
        return false;
      }
      await client.query(`DELETE FROM ${turns} WHERE task_id = $1`, [taskId]);
      await client.query(`INSERT INTO ${turns} (task_id, seq, link) VALUES ($1, 0, $2)`, [taskId, link]);
      await client.query("COMMIT");
      return true;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  };
  return {
    async append(taskId, workerId, link) {
      const json = JSON.stringify(link);
      if (link.seq === 0) return startChain(taskId, workerId, json);
      const written = await pool.query(appendSql, [taskId, workerId, link.seq, json]);
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
