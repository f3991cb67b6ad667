import { createTaskQueue } from "@x/queue-postgres";
import type { Command } from "../args";
import type { CliIo } from "../io";
import { openSandbox } from "../sandbox/sandbox";
import { reportTask, settled, waitingCall } from "./enqueue";

/**
 * Shows a queued task — the whole call it waits for, if any — or shows that call and decides it (any
 * worker then resumes it).
 */
export async function taskCommand(command: Extract<Command, { name: "task" }>, io: CliIo): Promise<number> {
  const sandbox = command.sandbox === undefined ? undefined : await openSandbox(command.sandbox, { create: false });
  const queue = createTaskQueue({ connectionString: command.queue });
  await queue.start();
  try {
    if (command.decision) {
      // Shown whole before it is decided: the decision goes to the call the task waits on now.
      const call = await waitingCall(await queue.getTask(command.taskId, command.owner), sandbox);
      if (call) io.emit({ type: "pending_call", decision: command.decision, ...call });
      await queue.approve(command.taskId, command.owner, {
        decision: command.decision,
        ...(command.reason !== undefined ? { reason: command.reason } : {}),
      });
      io.emit({ type: "note", text: `task ${command.taskId}: ${command.decision}d; a worker resumes it` });
    }
    const task = command.wait
      ? await settled(queue, command.taskId, command.owner)
      : await queue.getTask(command.taskId, command.owner);
    return await reportTask(io, task, sandbox);
  } finally {
    await queue.stop();
  }
}
