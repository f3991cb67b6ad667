import { createTaskQueue, type QueuedTask } from "@x/queue-postgres";
import type { ApprovalInbox, InboxItem, RunSource, RunSummary } from "@x/studio";
import { waitingCall } from "./commands/enqueue";
import { inboxItemOf } from "./studio-inbox-item";

/** How many of an owner's newest tasks the studio lists. */
const LISTED = 100;

/**
 * The queue's PostgreSQL tasks of one owner, as the studio's run list and inbox. A decision is the queue's own
 * `approve` (bound to the park the person was shown), and a worker resumes the task: the studio's live view says
 * the decision was handed off.
 */
export async function queueSource(
  connectionString: string,
  owner: string,
  sandbox?: string,
): Promise<{ inbox: ApprovalInbox; runs: RunSource; close: () => Promise<void> }> {
  const queue = createTaskQueue({ connectionString });
  await queue.start();
  const tasks = async (): Promise<QueuedTask[]> => {
    // The queue has no listing call; its own table, newest first, gives the ids `getTask` then reads whole.
    const { rows } = await queue.pool.query<{ id: string }>(
      `SELECT id FROM ${queue.schema}.tasks WHERE owner = $1 ORDER BY created_at DESC LIMIT ${LISTED}`,
      [owner],
    );
    return Promise.all(rows.map((row) => queue.getTask(row.id, owner)));
  };
  return {
    runs: { name: "queue", list: async () => (await tasks()).map(summary) },
    inbox: {
      list: async () => {
        const items: InboxItem[] = [];
        for (const task of await tasks()) {
          const item = await inboxItem(task, sandbox);
          if (item) items.push(item);
        }
        return items;
      },
      decide: async (id, decision) => {
        const task = (await tasks()).find((candidate) => candidate.result?.parked?.parkId === id);
        if (!task) throw new Error(`no queued task waits on park ${id}`);
        await queue.approve(task.id, owner, decision, { parkId: id });
        return undefined;
      },
    },
    close: () => queue.stop(),
  };
}

function summary(task: QueuedTask): RunSummary {
  const stats = task.result?.stats;
  return {
    id: task.id,
    label: `queue: ${task.spec.objective.slice(0, 80)}`,
    status: task.status,
    source: "queue",
    at: task.createdAt.toISOString(),
    ...(stats ? { tokens: stats.tokens, costMicroUsd: stats.costMicroUsd } : {}),
  };
}

async function inboxItem(task: QueuedTask, sandbox: string | undefined): Promise<InboxItem | undefined> {
  const parked = task.status === "parked" ? task.result?.parked : undefined;
  const view = await waitingCall(task, sandbox);
  if (!parked || !view) return undefined;
  return inboxItemOf(parked, view, {
    runId: task.id,
    label: `queue task ${task.id}`,
    costMicroUsd: task.result?.stats.costMicroUsd ?? 0,
  });
}
