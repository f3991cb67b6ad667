import type { TurnBuilder, FeedResult } from "@x/brain-kit";
import type { ChatCompletionChunk } from "openai/resources/chat/completions";

/** Gateway reasoning fields the SDK's types do not list. */
type GatewayDelta = ChatCompletionChunk.Choice.Delta & { reasoning_content?: string | null; reasoning?: string | null };

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
  private toolIndex: number | undefined;
  private toolId: string | undefined;

  constructor(private readonly turn: TurnBuilder) {}

  /** Takes one chunk; `cut` when the repetition guard ended the turn (stop reading). */
  read(chunk: ChatCompletionChunk): FeedResult {
    if (chunk.id) this.turn.responseId(chunk.id);
    if (chunk.usage) {
      const cached = chunk.usage.prompt_tokens_details?.cached_tokens ?? 0;
      this.turn.usage({
        input: Math.max(0, chunk.usage.prompt_tokens - cached),
        output: chunk.usage.completion_tokens,
        cacheRead: cached,
        reasoning: chunk.usage.completion_tokens_details?.reasoning_tokens,
      });
    }
    for (const choice of chunk.choices ?? []) {
      if (choice.index !== 0) continue;
      const result = this.delta(choice.delta);
      if (result !== "ok") return result;
      if (choice.finish_reason) this.finishReason = choice.finish_reason;
    }
    return "ok";
  }

  private delta(delta: GatewayDelta | undefined): FeedResult {
    if (!delta) return "ok";
    const reasoning = delta.reasoning_content ?? delta.reasoning;
    if (typeof reasoning === "string" && reasoning !== "") {
      const result = this.turn.thinkingDelta(reasoning);
      if (result !== "ok") return result;
    }
    if (typeof delta.content === "string" && delta.content !== "") {
      const result = this.turn.textDelta(delta.content);
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
   * new call is recognised by a new index or a different id.
   */
  private toolCall(call: ChatCompletionChunk.Choice.Delta.ToolCall): FeedResult {
    const index = typeof call.index === "number" ? call.index : (this.toolIndex ?? 0);
    const isNew =
      this.toolIndex === undefined || index !== this.toolIndex || (call.id !== undefined && call.id !== this.toolId);
    if (isNew) {
      // A new index means the call before it is complete: settle it now, so a stream that drops
      // during this one does not mark the finished one truncated.
      if (this.toolIndex !== undefined) this.turn.closeBlock();
      this.toolIndex = index;
      this.toolId = call.id ?? `call_${index}`;
      const result = this.turn.toolCallStart(this.toolId, call.function?.name ?? "");
      if (result !== "ok") return result;
    }
    const fragment = call.function?.arguments;
    return fragment ? this.turn.toolCallDelta(fragment) : "ok";
  }
}
