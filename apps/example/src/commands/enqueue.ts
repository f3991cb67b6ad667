import { setTimeout as sleep } from "node:timers/promises";
import { createTaskQueue, type QueuedTask, type TaskQueue } from "@x/queue-postgres";
import type { Command } from "../args";
import { pendingApproval } from "@x/runner";
import { invocation, type CliIo } from "../io";
import { viewPendingCall, type PendingCallView } from "../pending-call";
import { AGENT_SYSTEM_PROMPT } from "../runtime";
import { SANDBOX_PERMISSIONS } from "../sandbox/tools";

/** The sandbox tools a queued task may use, by name: every worker registers them. */
const TOOL_NAMES = ["list_files", "read_file", "write_file", "shell"];
const OPEN: ReadonlySet<string> = new Set(["queued", "running", "resuming"]);

/** Queues one task; with --wait, follows it to its end (or its park) and prints the answer. */
export async function enqueueCommand(command: Extract<Command, { name: "enqueue" }>, io: CliIo): Promise<number> {
  const queue = createTaskQueue({ connectionString: command.queue });
  await queue.start();
  try {
    const taskId = await queue.enqueue(
      {
        objective: command.objective,
        systemPrompt: AGENT_SYSTEM_PROMPT,
        toolNames: TOOL_NAMES,
        permissions: { ...SANDBOX_PERMISSIONS },
        maxTurns: command.maxTurns ?? 20,
      },
      { owner: command.owner, ...(command.scope !== undefined ? { scope: command.scope } : {}) },
    );
    io.emit({ type: "note", text: `queued task ${taskId} (owner ${command.owner})` });
    io.emit({ type: "queued", id: taskId, owner: command.owner });
    const where = { queue: command.queue, owner: command.owner };
    return command.wait ? await reportTask(io, await settled(queue, taskId, command.owner), where) : 0;
  } finally {
    await queue.stop();
  }
}

/** The task once it left the queued/running/resuming states: ended, parked, or waiting for a person. */
export async function settled(queue: TaskQueue, taskId: string, owner: string): Promise<QueuedTask> {
  let task = await queue.getTask(taskId, owner);
  while (OPEN.has(task.status)) {
    await sleep(250);
    task = await queue.getTask(taskId, owner);
  }
  return task;
}

/** The queue a task is in and its owner: what the printed `task` command needs to find it again. */
export interface TaskWhere {
  queue: string;
  owner: string;
}

/** `x-agent task <id> --store <url> [--owner <owner>]`, as this process was launched, to paste back as it is. */
export function taskCommandLine(io: CliIo, taskId: string, where: TaskWhere): string {
  const owner = where.owner === "default" ? "" : ` --owner ${where.owner}`;
  return `${invocation(io.env)} task ${taskId} --store ${where.queue}${owner}`;
}

/**
 * Prints a task's state, and the whole call a parked one waits for (diffed against `sandbox`, the
 * workers' folder, when given); exit 0 when it completed or waits for a person, else 1.
 */
export async function reportTask(io: CliIo, task: QueuedTask, where: TaskWhere, sandbox?: string): Promise<number> {
  const call = await waitingCall(task, sandbox);
  io.emit({
    type: "note",
    text: `task ${task.id}: ${task.status}${task.error ? ` — ${task.error}` : ""}${
      call ? ` — "${call.tool}" waits for a person` : ""
    }`,
  });
  if (call)
    io.emit({
      type: "pending_call",
      ...call,
      decide: `${taskCommandLine(io, task.id, where)} --approve   (or --deny)`,
    });
  if (task.result?.output) io.emit({ type: "note", text: task.result.output });
  return task.status === "completed" || task.status === "parked" || OPEN.has(task.status) ? 0 : 1;
}

/** The call a parked task waits for, wherever in its tree of sub-runs; undefined for a task that waits for none. */
export async function waitingCall(task: QueuedTask, sandbox?: string): Promise<PendingCallView | undefined> {
  const parked = task.status === "parked" ? task.result?.parked : undefined;
  return parked ? viewPendingCall(pendingApproval(parked), sandbox) : undefined;
}
