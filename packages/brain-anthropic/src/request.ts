import type { Anthropic } from "@anthropic-ai/sdk";
import type {
  AssistantMessage,
  BrainRequest,
  Context,
  ImageContent,
  Model,
  ToolResultMessage,
  UserMessage,
} from "@x/llm-types";
import { defaultThinkingStyle, thinkingFields, type AnthropicThinkingStyle } from "./thinking";

type MessageParam = Anthropic.MessageParam;
type ContentBlockParam = Anthropic.ContentBlockParam;
type TextBlockParam = Anthropic.TextBlockParam;
type ImageBlockParam = Anthropic.ImageBlockParam;
type ToolResultBlockParam = Anthropic.ToolResultBlockParam;

export type AnthropicRequestBody = Anthropic.MessageCreateParamsStreaming;

const EPHEMERAL = { type: "ephemeral" } as const;
const IMAGE_OMITTED = "[image omitted: this model takes text only]";

type ImageMediaType = Anthropic.Base64ImageSource["media_type"];

function image(block: ImageContent, model: Model): ImageBlockParam | TextBlockParam {
  if (!model.input.includes("image")) return { type: "text", text: IMAGE_OMITTED };
  return { type: "image", source: { type: "base64", media_type: block.mimeType as ImageMediaType, data: block.data } };
}

function userBlocks(message: UserMessage, model: Model): ContentBlockParam[] {
  if (typeof message.content === "string") return cacheSplit(message.content, message.cachePoints ?? []);
  return message.content.map((block) =>
    block.type === "text" ? { type: "text", text: block.text } : image(block, model),
  );
}

/**
 * A user turn's text cut into blocks at its cache points (those strictly inside it and increasing;
 * the rest are ignored), the block that ends at the last point marked: this request writes the
 * cache there, and the next one — which repeats the text up to that point and puts a point there
 * too — finds it at a block boundary, where Anthropic looks for cached prefixes.
 */
function cacheSplit(text: string, points: readonly number[]): TextBlockParam[] {
  const cuts: number[] = [];
  for (const point of points) if (point > (cuts.at(-1) ?? 0) && point < text.length) cuts.push(point);
  if (cuts.length === 0) return [{ type: "text", text }];
  const blocks: TextBlockParam[] = [...cuts, text.length].map((end, i) => ({
    type: "text",
    text: text.slice(i === 0 ? 0 : cuts[i - 1]!, end),
  }));
  blocks[cuts.length - 1]!.cache_control = EPHEMERAL;
  return blocks;
}

/**
 * An earlier assistant turn. Thinking goes back with its signature (Anthropic verifies it, and needs
 * it to continue a tool-use turn); thinking without a signature, or from another API, cannot be
 * verified and is left out. Empty text blocks are refused by the API and skipped.
 */
function assistantBlocks(message: AssistantMessage): ContentBlockParam[] {
  const sameWire = message.api === "anthropic-messages";
  const out: ContentBlockParam[] = [];
  for (const block of message.content) {
    if (block.type === "thinking") {
      if (!sameWire) continue;
      if (block.redacted) out.push({ type: "redacted_thinking", data: block.thinking });
      else if (block.signature) out.push({ type: "thinking", thinking: block.thinking, signature: block.signature });
    } else if (block.type === "text") {
      if (block.text) out.push({ type: "text", text: block.text });
    } else {
      out.push({ type: "tool_use", id: block.id, name: block.name, input: block.arguments });
    }
  }
  return out;
}

function toolResultBlock(message: ToolResultMessage, model: Model): ToolResultBlockParam {
  const content = message.content.map((block) =>
    block.type === "text" ? ({ type: "text", text: block.text } as const) : image(block, model),
  );
  return { type: "tool_result", tool_use_id: message.toolCallId, content, is_error: message.isError };
}

/**
 * Our history as Messages-API turns. Consecutive tool results merge into one user turn (the API
 * wants every result of a tool-use turn in the next user message).
 */
export function toAnthropicMessages(context: Context, model: Model): MessageParam[] {
  const out: MessageParam[] = [];
  let toolResults: ToolResultBlockParam[] | undefined;
  for (const message of context.messages) {
    if (message.role === "toolResult") {
      if (!toolResults) {
        toolResults = [];
        out.push({ role: "user", content: toolResults });
      }
      toolResults.push(toolResultBlock(message, model));
      continue;
    }
    toolResults = undefined;
    if (message.role === "user") out.push({ role: "user", content: userBlocks(message, model) });
    else {
      const blocks = assistantBlocks(message);
      if (blocks.length) out.push({ role: "assistant", content: blocks });
    }
  }
  return out;
}

/**
 * Prompt-cache breakpoints on the stable prefix: the system block, the last tool, and the last block
 * of the last TWO user turns. Marking the previous user turn again keeps the place the last call
 * wrote the cache a breakpoint, so this call reads it; the request of turn N+1 therefore starts with
 * exactly the messages of turn N. Four breakpoints at most, the API's limit.
 */
function markHistory(messages: MessageParam[]): void {
  let marked = 0;
  for (let i = messages.length - 1; i >= 0 && marked < 2; i--) {
    const message = messages[i]!;
    if (message.role !== "user" || typeof message.content === "string") continue;
    // A turn split at its cache points is marked where its author said the stable prefix ends.
    if (message.content.some((block) => "cache_control" in block && block.cache_control)) {
      marked++;
      continue;
    }
    // User turns we build hold text, image and tool_result blocks, all of which take cache_control.
    const last = message.content.at(-1) as { cache_control?: typeof EPHEMERAL } | undefined;
    if (!last) continue;
    last.cache_control = EPHEMERAL;
    marked++;
  }
}

/** The whole streaming request body for one call. */
export function buildAnthropicRequest(
  model: Model,
  context: Context,
  request: BrainRequest,
  thinkingStyle: AnthropicThinkingStyle = model.thinkingStyle ?? defaultThinkingStyle(model.id),
): AnthropicRequestBody {
  const maxTokens = request.maxTokens ?? model.maxTokens;
  const messages = toAnthropicMessages(context, model);
  markHistory(messages);
  const body: AnthropicRequestBody = { model: model.id, max_tokens: maxTokens, messages, stream: true };
  if (context.systemPrompt) body.system = [{ type: "text", text: context.systemPrompt, cache_control: EPHEMERAL }];
  if (context.tools?.length) {
    body.tools = context.tools.map((tool, index, all) => ({
      name: tool.name,
      description: tool.description,
      input_schema: tool.parameters as Anthropic.Tool.InputSchema,
      ...(index === all.length - 1 ? { cache_control: EPHEMERAL } : {}),
    }));
  }
  Object.assign(body, thinkingFields(model, request.reasoning, maxTokens, thinkingStyle, messages));
  if (request.stop?.length) body.stop_sequences = request.stop;
  return body;
}
