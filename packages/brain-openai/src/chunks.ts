import type { FeedResult, TurnBuilder, UsageCounts } from "@x/brain-kit";
import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import type { CompletionUsage } from "openai/resources/completions";
import { reportedCount } from "./reported-count";

/** Gateway fields the SDK's types do not list: reasoning text, and `content` as a list of parts (Mistral). */
type GatewayDelta = Omit<ChatCompletionChunk.Choice.Delta, "content"> & {
  content?: string | ContentPart[] | null;
  reasoning_content?: string | null;
  reasoning?: string | null;
};
/** One part of a `content` list: text, or thinking that holds parts of its own. */
type ContentPart = { type?: string; text?: unknown; thinking?: unknown };

/**
 * Usage as every billed token: `total_tokens` is what the host bills, and where it exceeds
 * prompt + completion the difference is reasoning reported outside `completion_tokens` (xAI counts
 * `reasoning_tokens` apart; OpenAI and most gateways count them inside). Output takes that
 * difference, so cost and budgets see what the provider charges.
 */
export function billedUsage(usage: CompletionUsage): UsageCounts {
  const cached = usage.prompt_tokens_details?.cached_tokens ?? 0;
  const output = Math.max(usage.completion_tokens, (usage.total_tokens ?? 0) - usage.prompt_tokens);
  return {
    input: Math.max(0, usage.prompt_tokens - cached),
    output,
    cacheRead: cached,
    reasoning: reportedCount(usage.completion_tokens_details?.reasoning_tokens),
  };
}

/** The answer and thinking text in a `content` that is a string or a list of parts. */
function contentText(content: GatewayDelta["content"]): { text: string; thinking: string } {
  if (typeof content === "string") return { text: content, thinking: "" };
  let text = "";
  let thinking = "";
  for (const part of content ?? []) {
    if (part.type === "text" && typeof part.text === "string") text += part.text;
    else if (part.type === "thinking") {
      thinking += typeof part.thinking === "string" ? part.thinking : contentText(part.thinking as ContentPart[]).text;
    }
  }
  return { text, thinking };
}

/**
 * Feeds Chat Completions chunks into a {@link TurnBuilder}: reasoning text from the gateways'
 * `reasoning_content` (vLLM, DeepSeek) or `reasoning` (OpenRouter, Ollama), answer text, tool calls
 * assembled from their streamed argument fragments, the final usage chunk. Remembers the finish
 * reason; the caller ends the turn once the stream is over (usage comes after the finish chunk).
 */
export class ChunkReader {
  finishReason: ChatCompletionChunk.Choice["finish_reason"] | undefined;
  /** Refusal text (structured-output refusals arrive in their own field). */
  refusal = "";
  /** The stream reached `data: [DONE]`: the provider ended it where it meant to. */
  sawDone = false;
  private named = false;
  private toolIndex: number | undefined;
  private toolId: string | undefined;
  /** The argument text of the open tool call. */
  private openArguments = "";

  constructor(private readonly turn: TurnBuilder) {}

  /** Takes one chunk; `cut` when the repetition guard ended the turn (stop reading). */
  read(chunk: ChatCompletionChunk): FeedResult {
    this.readId(chunk);
    this.readUsage(chunk);
    for (const choice of chunk.choices ?? []) {
      if (choice.index !== 0) continue;
      const result = this.delta(choice.delta);
      if (result !== "ok") return result;
      if (choice.finish_reason) this.finishReason = choice.finish_reason;
    }
    return "ok";
  }

  /**
   * The usage a chunk carries. Also called for a chunk that carries an error (OpenRouter bills the
   * tokens of a stream it then fails and says so in that chunk), before the error ends the turn.
   */
  readUsage(chunk: Pick<ChatCompletionChunk, "usage">): void {
    if (chunk.usage) this.turn.usage(billedUsage(chunk.usage));
  }

  /**
   * Every chunk of a completion carries its id; the first one names it. A later chunk does not
   * rename it: Groq's last chunk says `"id": "stub"`, and Groq compound names every chunk anew.
   */
  private readId(chunk: ChatCompletionChunk): void {
    if (!chunk.id || this.named) return;
    this.named = true;
    this.turn.responseId(chunk.id);
  }

  private delta(delta: GatewayDelta | undefined): FeedResult {
    if (!delta) return "ok";
    const parts = contentText(delta.content);
    const reasoning = (delta.reasoning_content ?? delta.reasoning) || parts.thinking;
    if (typeof reasoning === "string" && reasoning !== "") {
      const result = this.turn.thinkingDelta(reasoning);
      if (result !== "ok") return result;
    }
    if (parts.text !== "") {
      const result = this.turn.textDelta(parts.text);
      if (result !== "ok") return result;
    }
    if (typeof delta.refusal === "string") this.refusal += delta.refusal;
    for (const call of delta.tool_calls ?? []) {
      const result = this.toolCall(call);
      if (result !== "ok") return result;
    }
    return "ok";
  }

  /**
   * A tool-call fragment. The first fragment of a call carries its id and name; later ones only
   * `index` and argument text. Some gateways omit `index` or repeat the id on every fragment, so a
   * new call is recognised by a new index or a different id. An empty id is no id: DashScope sends
   * `"id": ""` on every later fragment of a call, which joins the call by its index.
   */
  private toolCall(call: ChatCompletionChunk.Choice.Delta.ToolCall): FeedResult {
    const index = typeof call.index === "number" ? call.index : (this.toolIndex ?? 0);
    const id = call.id || undefined;
    const isNew = this.toolIndex === undefined || index !== this.toolIndex || (id !== undefined && id !== this.toolId);
    if (isNew) {
      // A new index means the call before it is complete: settle it now, so a stream that drops
      // during this one does not mark the finished one truncated.
      if (this.toolIndex !== undefined) this.turn.closeBlock();
      this.toolIndex = index;
      this.toolId = id ?? `call_${index}`;
      const result = this.turn.toolCallStart(this.toolId, call.function?.name ?? "");
      if (result !== "ok") return result;
    }
    const fragment = call.function?.arguments;
    if (isNew) this.openArguments = "";
    if (!fragment) return "ok";
    this.openArguments += fragment;
    return this.turn.toolCallDelta(fragment);
  }

  /**
   * True when no tool call is open or the open one's arguments are whole JSON (or empty: no
   * arguments). A stream that reaches `[DONE]` with no finish reason in the middle of a call's
   * arguments was cut there, not finished.
   */
  get openCallWhole(): boolean {
    if (this.openArguments.trim() === "") return true;
    try {
      const value: unknown = JSON.parse(this.openArguments);
      return typeof value === "object" && value !== null && !Array.isArray(value);
    } catch {
      return false;
    }
  }
}
