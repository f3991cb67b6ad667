import type { CheckpointSegmentSink } from "@x/runner/backend";
import type { ToolResultInfo } from "@x/runner";
import type { TaskEvent } from "./task-events";
import type { TaskTurns } from "./task-turns";

/** The `tool_result` event a worker tells for one result. */
export function toolResultEvent(info: ToolResultInfo): TaskEvent {
  return { type: "tool_result", toolName: info.toolCall.name, isError: info.result.isError };
}

/**
 * The fenced sink for a run's checkpoint links. A turn is checkpointed when the model's answer is
 * accepted and again as its results come in (results of read-only tools alone ride with the next
 * answer's link); the `turn` event is told once per turn (past `toldTurns`), at its acceptance. Each
 * link carries the events `unsaid` holds (its tool results) and the `turn` event in its own
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
    // Results that come in while this link is written wait for the next one.
    const said = unsaid.length;
    const events = turn > toldTurns ? [...unsaid, { type: "turn", turns: turn }] : [...unsaid];
    if (!(await turns.append(taskId, workerId, link, json, events))) {
      throw new Error(`task ${taskId}: this worker lost its lease; another one continues the task`);
    }
    unsaid.splice(0, said);
    toldTurns = Math.max(toldTurns, turn);
  };
}
