import { createTaskQueue } from "@x/queue-postgres";
import type { Command } from "../args";
import type { CliIo } from "../io";
import { reportTask, settled } from "./enqueue";

/** Shows a queued task, or decides the approval it waits for (any worker then resumes it). */
export async function taskCommand(command: Extract<Command, { name: "task" }>, io: CliIo): Promise<number> {
  const queue = createTaskQueue({ connectionString: command.queue });
  await queue.start();
  try {
    if (command.decision) {
      await queue.approve(command.taskId, command.owner, {
        decision: command.decision,
        ...(command.reason !== undefined ? { reason: command.reason } : {}),
      });
      io.emit({ type: "note", text: `task ${command.taskId}: ${command.decision}d; a worker resumes it` });
    }
    const task = command.wait
      ? await settled(queue, command.taskId, command.owner)
      : await queue.getTask(command.taskId, command.owner);
    return reportTask(io, task);
  } finally {
    await queue.stop();
  }
}
