import type { RunCheckpointSegment } from "@x/runner/backend";
import { describe, expect, it } from "vitest";
import { checkpointSink } from "./checkpoint-sink";
import type { TaskEvent } from "./task-events";
import type { TaskTurns } from "./task-turns";

/** A chain store that keeps what each append was given. */
function recordingTurns() {
  const appended: TaskEvent[][] = [];
  const turns: TaskTurns = {
    append: async (_taskId, _workerId, _link, _json, events = []) => (appended.push([...events]), true),
    read: async () => [],
  };
  return { turns, appended };
}

const result = (toolCallId: string) => ({
  role: "toolResult" as const,
  toolCallId,
  toolName: "look",
  content: [{ type: "text" as const, text: "seen" }],
  isError: false,
  timestamp: 0,
});
const link = (turns: number, messages: RunCheckpointSegment["messages"]) =>
  ({ seq: 1, messages, state: { stats: { turns } } }) as unknown as RunCheckpointSegment;
const told = (toolCallId: string): TaskEvent => ({ type: "tool_result", toolName: "look", toolCallId, isError: false });

describe("the queue's checkpoint sink", () => {
  it("a link tells the results it holds, no more: one it leaves out is told with a later link", async () => {
    const { turns, appended } = recordingTurns();
    // Two results came in; the link holds the first only (the second was cut short by a stop).
    const unsaid = [told("call-1"), told("call-2")];
    const sink = checkpointSink(turns, "task-1", "worker-1", 1, unsaid);
    await sink(link(1, [result("call-1")]), "{}");
    expect(appended).toEqual([[told("call-1")]]);
    expect(unsaid).toEqual([told("call-2")]);
    // Held by the next link, with that turn's event.
    await sink(link(2, [result("call-2")]), "{}");
    expect(appended[1]).toEqual([told("call-2"), { type: "turn", turns: 2 }]);
    expect(unsaid).toEqual([]);
  });
});
