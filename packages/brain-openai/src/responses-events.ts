import type { FeedResult, TurnBuilder, UsageCounts } from "@x/brain-kit";
import type {
  Response,
  ResponseOutputItem,
  ResponseOutputMessage,
  ResponseStreamEvent,
  ResponseUsage,
} from "openai/resources/responses/responses";
import { argumentsPart, contentPart, FinishedText, summaryPart } from "./finished-text";
import { reportedCount } from "./reported-count";

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
    reasoning: reportedCount(usage.output_tokens_details?.reasoning_tokens),
  };
}

/**
 * Feeds Responses API stream events into a {@link TurnBuilder}: reasoning summaries (or raw
 * reasoning text, which open-weight hosts stream) as thinking, whose block's signature keeps the
 * reasoning item's id and encrypted content for the next turn; answer text; function calls with
 * their argument fragments; usage, the ending and the response id from the final event. A function
 * call's id is `call_id|item id` (see `splitCallId`). Each part's finished text is the authority:
 * what its deltas left out is added, and a finished text that disagrees with its deltas ends the
 * turn `provider` (see {@link FinishedText}).
 */
export class ResponsesEventReader {
  ending: ResponsesEnding | undefined;
  /** Refusal text (it arrives in its own content part). */
  refusal = "";
  private readonly parts = new FinishedText();
  /** The output index of each message item, in the order they were added. */
  private readonly messageIndexes: number[] = [];
  /** A message's text was finished by its own events (`done`), so the final output adds nothing. */
  private messagesFinished = false;

  constructor(private readonly turn: TurnBuilder) {}

  /** Takes one event; `cut` when the turn ended (the guard cut it, or a finished text disagreed). */
  read(event: ResponseStreamEvent): FeedResult {
    switch (event.type) {
      case "response.created":
        return this.turn.responseId(event.response.id);
      case "response.output_item.added":
        return this.itemAdded(event.output_index, event.item);
      case "response.reasoning_summary_part.added":
        // Summary parts are paragraphs of one block.
        this.parts.add(summaryPart(event.output_index, event.summary_index), "");
        return event.summary_index > 0 ? this.turn.thinkingDelta("\n\n") : "ok";
      case "response.reasoning_summary_text.delta":
        this.parts.add(summaryPart(event.output_index, event.summary_index), event.delta);
        return this.turn.thinkingDelta(event.delta);
      case "response.reasoning_summary_text.done":
        return this.settleThinking(summaryPart(event.output_index, event.summary_index), event.text);
      case "response.reasoning_text.delta":
        this.parts.add(contentPart(event.output_index, event.content_index), event.delta);
        return this.turn.thinkingDelta(event.delta);
      case "response.reasoning_text.done":
        return this.settleThinking(contentPart(event.output_index, event.content_index), event.text);
      case "response.output_text.delta":
        this.parts.add(contentPart(event.output_index, event.content_index), event.delta);
        return this.turn.textDelta(event.delta);
      case "response.output_text.done":
        this.messagesFinished = true;
        return this.settleText(contentPart(event.output_index, event.content_index), event.text);
      case "response.refusal.delta":
        this.refusal += event.delta;
        return "ok";
      case "response.refusal.done":
        this.refusal = event.refusal;
        return "ok";
      case "response.function_call_arguments.delta":
        this.parts.add(argumentsPart(event.output_index), event.delta);
        return this.turn.toolCallDelta(event.delta);
      case "response.function_call_arguments.done":
        return this.settleArguments(event.output_index, event.arguments);
      case "response.output_item.done":
        return this.itemDone(event.output_index, event.item);
      case "response.completed":
        return this.end(event.response, { kind: "completed" });
      case "response.incomplete":
        return this.end(event.response, {
          kind: "incomplete",
          reason: event.response.incomplete_details?.reason ?? undefined,
        });
      case "response.failed":
        return this.end(event.response, {
          kind: "failed",
          code: event.response.error?.code ?? undefined,
          message: event.response.error?.message ?? "the response failed",
        });
      default:
        return "ok";
    }
  }

  /**
   * The final event: its usage, its ending, its id (the final id is the response's own: GitHub
   * Copilot names `response.created` and `response.completed` differently), and, when no message
   * was finished by its own events, the text of the messages its `output` holds.
   */
  private end(response: Response, ending: ResponsesEnding): FeedResult {
    if (response.usage) this.turn.usage(responsesUsage(response.usage));
    if (response.id) this.turn.responseId(response.id);
    this.ending = ending;
    return this.messagesFinished ? "ok" : this.settleFinalMessages(response.output ?? []);
  }

  /**
   * The final output's messages, matched to the streamed ones by their order: a recorded `output`
   * can leave items out (a reasoning item), so its positions are not the stream's output indexes.
   */
  private settleFinalMessages(output: ResponseOutputItem[]): FeedResult {
    const messages = output.filter((item): item is ResponseOutputMessage => item.type === "message");
    for (let k = 0; k < messages.length; k++) {
      const result = this.settleMessage(this.messageIndexes[k] ?? output.length + k, messages[k]!);
      if (result !== "ok") return result;
    }
    return "ok";
  }

  private itemAdded(index: number, item: ResponseOutputItem): FeedResult {
    this.turn.closeBlock();
    if (item.type === "message") this.messageIndexes.push(index);
    if (item.type === "reasoning") return this.turn.thinkingDelta("");
    if (item.type === "function_call") {
      const id = item.id ? `${item.call_id}|${item.id}` : item.call_id;
      return this.turn.toolCallStart(id, item.name);
    }
    return "ok";
  }

  private itemDone(index: number, item: ResponseOutputItem): FeedResult {
    if (item.type === "message") {
      this.messagesFinished = true;
      return this.settleMessage(index, item);
    }
    if (item.type === "function_call") {
      const result = this.settleArguments(index, item.arguments);
      return result === "ok" ? this.turn.closeBlock() : result;
    }
    if (item.type !== "reasoning") return "ok";
    const summaries = item.summary ?? [];
    for (let part = 0; part < summaries.length; part++) {
      const result = this.settleSummary(index, part, summaries[part]!.text);
      if (result !== "ok") return result;
    }
    const texts = item.content ?? [];
    for (let part = 0; part < texts.length; part++) {
      const result = this.settleThinking(contentPart(index, part), texts[part]!.text);
      if (result !== "ok") return result;
    }
    const signature = JSON.stringify({ id: item.id, encrypted_content: item.encrypted_content ?? null });
    const result = this.turn.thinkingSignature(signature);
    return result === "ok" ? this.turn.closeBlock() : result;
  }

  /** A finished message: each of its text parts held against what streamed. */
  private settleMessage(index: number, item: ResponseOutputMessage): FeedResult {
    for (let part = 0; part < item.content.length; part++) {
      const content = item.content[part]!;
      if (content.type !== "output_text") continue;
      const result = this.settleText(contentPart(index, part), content.text);
      if (result !== "ok") return result;
    }
    return "ok";
  }

  /** A summary part finished in its item only: a part never announced still opens its own paragraph. */
  private settleSummary(index: number, part: number, text: string): FeedResult {
    const name = summaryPart(index, part);
    const opens = part > 0 && !this.parts.has(name);
    return this.settleThinking(name, text, opens ? "\n\n" : "");
  }

  private settleText(part: string, finished: string): FeedResult {
    return this.settle(part, finished, (rest) => this.turn.textDelta(rest));
  }

  private settleThinking(part: string, finished: string, opening = ""): FeedResult {
    return this.settle(part, finished, (rest) => this.turn.thinkingDelta(opening + rest));
  }

  private settleArguments(index: number, finished: string): FeedResult {
    return this.settle(argumentsPart(index), finished, (rest) => this.turn.toolCallDelta(rest));
  }

  private settle(part: string, finished: string, add: (rest: string) => FeedResult): FeedResult {
    const settled = this.parts.settle(part, finished);
    if (settled.kind === "settled" || (settled.kind === "rest" && settled.rest === "")) return "ok";
    if (settled.kind === "rest") return add(settled.rest);
    this.turn.fail(
      "provider",
      `the stream's deltas for output part ${part} (${settled.streamed} characters) disagree with its ` +
        `finished text (${settled.finished} characters); the reply cannot be trusted`,
    );
    // The turn is over: "cut" tells the caller to stop reading and drop the request.
    return "cut";
  }
}
