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
      // Shown whole before it is decided, and decided only if the task still waits on that very
      // park: a call that changed in between is refused (park_changed), never decided unseen.
      const shown = await queue.getTask(command.taskId, command.owner);
      const call = await waitingCall(shown, sandbox);
      if (call) io.emit({ type: "pending_call", decision: command.decision, ...call });
      const parkId = shown.result?.parked?.parkId;
      await queue.approve(
        command.taskId,
        command.owner,
        { decision: command.decision, ...(command.reason !== undefined ? { reason: command.reason } : {}) },
        parkId !== undefined ? { parkId } : {},
      );
      io.emit({ type: "note", text: `task ${command.taskId}: ${command.decision}d; a worker resumes it` });
    }
    const task = command.wait
      ? await settled(queue, command.taskId, command.owner)
      : await queue.getTask(command.taskId, command.owner);
    return await reportTask(io, task, { queue: command.queue, owner: command.owner }, sandbox);
  } finally {
    await queue.stop();
  }
}
