import type { TaskQueue } from "./task-queue";

/**
 * Gives a task `workerId` holds back to the queue, to be taken after `afterSeconds`: the lease
 * given up and a new job sent in one transaction, so the job is seen only once the task is free,
 * and only if this worker still held it. Not a failed take: its take count goes back.
 */
export async function handBackTask(queue: TaskQueue, workerId: string, taskId: string, afterSeconds: number) {
  const client = await queue.pool.connect();
  try {
    await client.query("BEGIN");
    // The owner goes too: a lease renewal already on its way finds nothing to renew.
    const released = await client.query(
      `UPDATE ${queue.schema}.tasks
       SET lease_owner = NULL, lease_until = NULL, attempts = attempts - 1, updated_at = now()
       WHERE id = $1 AND lease_owner = $2`,
      [taskId, workerId],
    );
    if (released.rowCount === 1) await queue.send(taskId, client, afterSeconds);
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
