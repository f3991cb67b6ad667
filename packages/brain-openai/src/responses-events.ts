import type { FeedResult, TurnBuilder, UsageCounts } from "@x/brain-kit";
import type { ResponseOutputItem, ResponseStreamEvent, ResponseUsage } from "openai/resources/responses/responses";

/** How the response ended, as its last event said. */
export type ResponsesEnding =
  | { kind: "completed" }
  | { kind: "incomplete"; reason: string | undefined }
  | { kind: "failed"; code: string | undefined; message: string };

/** Usage of a finished response: `input_tokens` includes the cached part; `output_tokens` includes reasoning. */
export function responsesUsage(usage: ResponseUsage): UsageCounts {
  const cached = usage.input_tokens_details?.cached_tokens ?? 0;
  return {
    input: Math.max(0, usage.input_tokens - cached),
    output: usage.output_tokens,
    cacheRead: cached,
    reasoning: usage.output_tokens_details?.reasoning_tokens || undefined,
  };
}

/**
 * Feeds Responses API stream events into a {@link TurnBuilder}: reasoning summaries (or raw
 * reasoning text, which open-weight hosts stream) as thinking, whose block's signature keeps the
 * reasoning item's id and encrypted content for the next turn; answer text; function calls with
 * their argument fragments; usage and the ending from the final event. A function call's id is
 * `call_id|item id` (see `splitCallId`).
 */
export class ResponsesEventReader {
  ending: ResponsesEnding | undefined;
  /** Refusal text (it arrives in its own content part). */
  refusal = "";
  /** Argument text streamed for the open function call (some hosts send it only on `done`). */
  private streamedArguments = false;
  private summaryParts = 0;

  constructor(private readonly turn: TurnBuilder) {}

  /** Takes one event; `cut` when the repetition guard ended the turn (stop reading). */
  read(event: ResponseStreamEvent): FeedResult {
    switch (event.type) {
      case "response.created":
        return this.turn.responseId(event.response.id);
      case "response.output_item.added":
        return this.itemAdded(event.item);
      case "response.reasoning_summary_part.added":
        // Summary parts are paragraphs of one block.
        return this.summaryParts++ > 0 ? this.turn.thinkingDelta("\n\n") : "ok";
      case "response.reasoning_summary_text.delta":
      case "response.reasoning_text.delta":
        return this.turn.thinkingDelta(event.delta);
      case "response.output_text.delta":
        return this.turn.textDelta(event.delta);
      case "response.refusal.delta":
        this.refusal += event.delta;
        return "ok";
      case "response.function_call_arguments.delta":
        this.streamedArguments = true;
        return this.turn.toolCallDelta(event.delta);
      case "response.output_item.done":
        return this.itemDone(event.item);
      case "response.completed":
        this.usage(event.response.usage);
        this.ending = { kind: "completed" };
        return "ok";
      case "response.incomplete":
        this.usage(event.response.usage);
        this.ending = { kind: "incomplete", reason: event.response.incomplete_details?.reason ?? undefined };
        return "ok";
      case "response.failed":
        this.usage(event.response.usage);
        this.ending = {
          kind: "failed",
          code: event.response.error?.code ?? undefined,
          message: event.response.error?.message ?? "the response failed",
        };
        return "ok";
      default:
        return "ok";
    }
  }

  private usage(usage: ResponseUsage | null | undefined): void {
    if (usage) this.turn.usage(responsesUsage(usage));
  }

  private itemAdded(item: ResponseOutputItem): FeedResult {
    this.turn.closeBlock();
    if (item.type === "reasoning") {
      this.summaryParts = 0;
      return this.turn.thinkingDelta("");
    }
    if (item.type === "function_call") {
      this.streamedArguments = false;
      const id = item.id ? `${item.call_id}|${item.id}` : item.call_id;
      return this.turn.toolCallStart(id, item.name);
    }
    return "ok";
  }

  private itemDone(item: ResponseOutputItem): FeedResult {
    if (item.type === "reasoning") {
      const signature = JSON.stringify({ id: item.id, encrypted_content: item.encrypted_content ?? null });
      const result = this.turn.thinkingSignature(signature);
      if (result !== "ok") return result;
    }
    if (item.type === "function_call" && !this.streamedArguments) {
      const result = this.turn.toolCallDelta(item.arguments);
      if (result !== "ok") return result;
    }
    return item.type === "reasoning" || item.type === "function_call" ? this.turn.closeBlock() : "ok";
  }
}
