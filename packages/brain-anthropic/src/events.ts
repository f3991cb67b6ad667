import type { Anthropic } from "@anthropic-ai/sdk";
import type { FeedResult, TurnBuilder } from "@x/brain-kit";

type StreamEvent = Anthropic.RawMessageStreamEvent;
type UsageLike = {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
};

const count = (value: number | null | undefined) => (typeof value === "number" ? value : undefined);

/**
 * Feeds Messages-API stream events into a {@link TurnBuilder}: thinking (with the signature that
 * must go back on the next turn), redacted thinking, text, tool use assembled from `partial_json`,
 * usage from `message_start` and `message_delta` (Anthropic's `input_tokens` already excludes the
 * cached part). Each `content_block_stop` closes its block, so a tool call whose block ended is
 * settled even if the stream drops before `message_delta`, and two blocks of one kind (interleaved
 * thinking, each with its signature) stay two. Remembers the stop reason.
 */
export class EventReader {
  stopReason: Anthropic.StopReason | undefined;
  /** A tool input that came whole in its block's start; sent when the block ends with no `partial_json`. */
  private wholeInput: string | undefined;
  /** Only the first `message_start` counts: a repeated one must not add its content twice. */
  private started = false;

  constructor(private readonly turn: TurnBuilder) {}

  /** Takes one event; `cut` when the repetition guard ended the turn (stop reading). */
  read(event: StreamEvent): FeedResult {
    switch (event.type) {
      case "message_start":
        return this.messageStart(event.message);
      case "content_block_start":
        // A new block means the one before is over, even if its stop never came.
        this.closeBlock();
        return this.blockStart(event.content_block);
      case "content_block_delta":
        return this.delta(event.delta);
      case "content_block_stop":
        return this.closeBlock();
      case "message_delta":
        this.closeBlock();
        if (event.delta.stop_reason) this.stopReason = event.delta.stop_reason;
        this.usage(event.usage);
        return "ok";
      default:
        return "ok";
    }
  }

  /**
   * The message header. Its `output_tokens` is a placeholder (1) that `message_delta` replaces; a
   * stream that drops before then gets an estimate of what arrived instead of a reported 1. A
   * reply can also arrive whole here (content and stop reason, then `message_stop`), as
   * programmatic tool calling sends the calls its code makes.
   */
  private messageStart(message: Anthropic.Message): FeedResult {
    if (this.started) return "ok";
    this.started = true;
    this.turn.responseId(message.id);
    this.usage({ ...message.usage, output_tokens: message.content.length ? message.usage.output_tokens : undefined });
    for (const block of message.content) {
      const result = this.blockStart(block);
      if (result !== "ok") return result;
      this.closeBlock();
    }
    if (message.stop_reason) this.stopReason = message.stop_reason;
    return "ok";
  }

  /** Ends the open block, first sending a tool input that came whole with its start. */
  private closeBlock(): FeedResult {
    const whole = this.wholeInput;
    this.wholeInput = undefined;
    if (whole !== undefined) {
      const result = this.turn.toolCallDelta(whole);
      if (result !== "ok") return result;
    }
    return this.turn.closeBlock();
  }

  private usage(usage: UsageLike | null | undefined): void {
    if (!usage) return;
    this.turn.usage({
      input: count(usage.input_tokens),
      output: count(usage.output_tokens),
      cacheRead: count(usage.cache_read_input_tokens),
      cacheWrite: count(usage.cache_creation_input_tokens),
    });
  }

  private blockStart(block: Anthropic.RawContentBlockStartEvent["content_block"] | Anthropic.ContentBlock): FeedResult {
    switch (block.type) {
      case "text":
        return this.turn.textDelta(block.text);
      case "thinking":
        return this.turn.thinkingDelta(block.thinking, block.signature || undefined);
      case "redacted_thinking":
        return this.turn.redactedThinking(block.data);
      case "tool_use": {
        const input = block.input;
        const whole = input && typeof input === "object" && Object.keys(input).length > 0;
        this.wholeInput = whole ? JSON.stringify(input) : undefined;
        return this.turn.toolCallStart(block.id, block.name);
      }
      default:
        // Server-side tool blocks (web search, code execution) are the provider's business.
        return "ok";
    }
  }

  private delta(delta: Anthropic.RawContentBlockDelta): FeedResult {
    switch (delta.type) {
      case "text_delta":
        return this.turn.textDelta(delta.text);
      case "thinking_delta":
        return this.turn.thinkingDelta(delta.thinking);
      case "signature_delta":
        return this.turn.thinkingSignature(delta.signature);
      case "input_json_delta":
        // Streamed input replaces what the start said (`{}` in every ordinary stream).
        if (delta.partial_json) this.wholeInput = undefined;
        return this.turn.toolCallDelta(delta.partial_json);
      default:
        return "ok";
    }
  }
}
