import {
  EventStream,
  usageFor,
  type AssistantMessage,
  type Brain,
  type BrainStream,
  type Context,
  type Model,
  describeError,
} from "@x/llm-types";

/**
 * Answers a request from recorded data: the host's function picks the reply text, and may bill the
 * reply at a recorded length instead of the text's own (a reply replayed in short form).
 */
export type ReplayAnswer = (model: Model, context: Context) => string | { text: string; outputTokens: number };
/** Sees every finished turn with its request (for the bench's own cost breakdown). */
export type ReplayObserver = (model: Model, context: Context, message: AssistantMessage) => void;

/** Everything a request sends, as text: what the chars/4 token estimate counts as input. */
export function requestText(context: Context): string {
  const parts: string[] = [context.systemPrompt ?? ""];
  for (const message of context.messages) {
    if (typeof message.content === "string") parts.push(message.content);
    else for (const block of message.content) if (block.type === "text") parts.push(block.text);
  }
  return parts.join("\n");
}

/** Token estimate used throughout the bench: one token per four characters, rounded up. */
export const estimateTokens = (text: string): number => Math.ceil(text.length / 4);

/**
 * A Brain that replays recorded model output. It streams the reply as one text block and bills
 * chars/4 tokens of input (system prompt + every message) and output at the model's prices,
 * marked `estimated`. It bills no cache reads or writes: all input is billed at the full input price,
 * as for the replayed models, which had no provider prompt cache. It never throws: a lookup failure
 * becomes an `error` turn.
 */
export class ReplayBrain implements Brain {
  readonly api = "replay";
  constructor(
    private readonly answer: ReplayAnswer,
    private readonly observe?: ReplayObserver,
  ) {}

  stream(model: Model, context: Context): BrainStream {
    const stream = new EventStream();
    const base = {
      role: "assistant" as const,
      api: model.api,
      provider: model.provider,
      model: model.id,
      timestamp: Date.now(),
    };
    let text: string;
    let outputTokens: number;
    try {
      const reply = this.answer(model, context);
      text = typeof reply === "string" ? reply : reply.text;
      outputTokens = typeof reply === "string" ? estimateTokens(reply) : reply.outputTokens;
    } catch (error) {
      const message: AssistantMessage = {
        ...base,
        content: [],
        usage: usageFor(model, { input: 0, output: 0, estimated: true }),
        stopReason: "error",
        errorKind: "provider",
        errorMessage: describeError(error),
      };
      stream.push({ type: "error", message });
      return stream;
    }
    const usage = usageFor(model, {
      input: estimateTokens(requestText(context)),
      output: outputTokens,
      estimated: true,
    });
    const message: AssistantMessage = { ...base, content: [{ type: "text", text }], usage, stopReason: "stop" };
    stream.push({ type: "start", partial: { ...message, content: [] } });
    stream.push({ type: "text_start", contentIndex: 0 });
    stream.push({ type: "text_delta", contentIndex: 0, delta: text });
    stream.push({ type: "text_end", contentIndex: 0, text });
    stream.push({ type: "done", message });
    this.observe?.(model, context, message);
    return stream;
  }
}
