import type { CheckpointSegmentSink } from "@x/runner/backend";
import type { ToolResultInfo } from "@x/runner";
import type { TaskEvent } from "./task-events";
import type { TaskTurns } from "./task-turns";

/** The `tool_result` event a worker tells for one result. */
export function toolResultEvent(info: ToolResultInfo): TaskEvent {
  return {
    type: "tool_result",
    toolName: info.toolCall.name,
    toolCallId: info.toolCall.id,
    isError: info.result.isError,
  };
}

/**
 * The fenced sink for a run's checkpoint links. A turn is checkpointed when the model's answer is
 * accepted and again as its results come in (results of read-only tools alone ride with the next
 * answer's link); the `turn` event is told once per turn (past `toldTurns`), at its acceptance. Each
 * link carries the events of `unsaid` for the results it holds and the `turn` event in its own
 * statement: the events say what the chain holds, no more, and a turn costs the database one round
 * trip per link. Throws when the lease is gone.
 */
export function checkpointSink(
  turns: TaskTurns,
  taskId: string,
  workerId: string,
  toldTurns: number,
  unsaid: TaskEvent[],
): CheckpointSegmentSink {
  return async (link, json) => {
    const turn = link.state.stats.turns;
    // The results this link holds: not one that came in while it is written, nor one the link
    // leaves out (a call a stop cut short, which the next worker runs again and tells then).
    const held = new Set(link.messages.flatMap((m) => (m.role === "toolResult" ? [m.toolCallId] : [])));
    const told = unsaid.filter((event) => held.has(event.toolCallId as string));
    const events = turn > toldTurns ? [...told, { type: "turn", turns: turn }] : told;
    if (!(await turns.append(taskId, workerId, link, json, events))) {
      throw new Error(`task ${taskId}: this worker lost its lease; another one continues the task`);
    }
    for (const event of told) unsaid.splice(unsaid.indexOf(event), 1);
    toldTurns = Math.max(toldTurns, turn);
  };
}
