import type { RunEvent, TaskResult, ToolCallOf } from "./run-types";

type Message = TaskResult["messages"][number];

/** What a resumed run's events are told about the call a person decided. */
export interface DecidedCall {
  toolCallId: string;
  decision: "approve" | "deny";
}

/** What `resultEvents` adds around the messages' own events. */
export interface ResultEventsOptions {
  /** Begin with `run_start` (an AG-UI stream needs one; a UI message stream continuing a message does not). */
  start?: boolean;
  /** Repeat the decided call's `tool_call` first, for a viewer that did not see the run before it parked. */
  repeatDecidedCall?: boolean;
}

/**
 * The events of a run's messages after the first `shown` of them, for a run whose live events were not
 * streamed (`runner.resume` returns a result): the decided call's approval, each assistant turn as a step with
 * its text, reasoning and calls, each tool result, a new park if there is one, and `run_end`.
 */
export function* resultEvents(
  result: TaskResult,
  shown: number,
  decided?: DecidedCall,
  options: ResultEventsOptions = {},
): Generator<RunEvent> {
  if (options.start) yield { type: "run_start", runId: result.runId, model: result.model?.id ?? "" };
  const calls = new Map<string, ToolCallOf>();
  for (const message of result.messages.slice(0, shown))
    if (message.role === "assistant")
      for (const block of message.content) if (block.type === "toolCall") calls.set(block.id, block);
  const decidedCall = decided ? calls.get(decided.toolCallId) : undefined;
  // A viewer that never saw the parked stream (a new page) is shown the call before the decision on it.
  if (decidedCall && options.repeatDecidedCall) yield { type: "tool_call", toolCall: decidedCall, permission: "ask" };
  if (decided && decidedCall)
    yield { type: "approval", toolCall: decidedCall, kind: "ask", decision: decided.decision, waitMs: 0 };
  // Turns go on from the park's, so message ids made from them do not repeat the streamed ones.
  let turn = result.messages.slice(0, shown).filter((message) => message.role === "assistant").length;
  for (const message of result.messages.slice(shown)) yield* messageEvents(message, turn++, calls);
  if (result.parked) yield { type: "parked", parked: result.parked };
  yield { type: "run_end", result };
}

function* messageEvents(message: Message, turn: number, calls: Map<string, ToolCallOf>): Generator<RunEvent> {
  if (message.role === "toolResult") {
    const toolCall = calls.get(message.toolCallId);
    if (toolCall) yield { type: "tool_result", toolCall, result: message };
    return;
  }
  if (message.role !== "assistant") return;
  yield { type: "turn_start", turn, model: message.model };
  for (const block of message.content) {
    if (block.type === "text") yield { type: "text_delta", turn, delta: block.text };
    else if (block.type === "thinking" && !block.redacted)
      yield { type: "thinking_delta", turn, delta: block.thinking };
  }
  yield { type: "turn_end", turn, message };
  for (const block of message.content)
    if (block.type === "toolCall") {
      calls.set(block.id, block);
      yield { type: "tool_call", toolCall: block, permission: "allow" };
    }
}
