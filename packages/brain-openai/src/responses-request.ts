import type {
  AssistantMessage,
  BrainRequest,
  Context,
  ImageContent,
  Model,
  TextContent,
  ToolResultMessage,
  UserMessage,
} from "@x/llm-types";
import type {
  FunctionTool,
  ResponseCreateParamsStreaming,
  ResponseInputContent,
  ResponseInputItem,
} from "openai/resources/responses/responses";

/** The request body sent for one Responses API call. */
export type ResponsesRequestBody = ResponseCreateParamsStreaming;

const IMAGE_OMITTED = "[image omitted: this model takes text only]";

/**
 * A reasoning item as it rides in a thinking block's `signature`: the item id and its encrypted
 * content (`store: false` keeps nothing server-side, so the next turn must carry both back).
 */
export interface ReasoningItemRef {
  id: string;
  encrypted_content?: string | null;
}

/**
 * A tool call's id joins the call id the tool result answers and the output item's id (`fc_…`),
 * which a replayed reasoning item needs beside it: `call_…|fc_…`. Calls from another API have no
 * item id.
 */
export function splitCallId(id: string): { callId: string; itemId?: string } {
  const bar = id.indexOf("|");
  return bar < 0 ? { callId: id } : { callId: id.slice(0, bar), itemId: id.slice(bar + 1) };
}

/** The reasoning item a signature names; undefined for any other text (e.g. an Anthropic signature). */
export function reasoningRef(signature: string | undefined): ReasoningItemRef | undefined {
  if (!signature?.startsWith("{")) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(signature);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null || !("id" in value) || typeof value.id !== "string") return undefined;
  const encrypted = "encrypted_content" in value ? value.encrypted_content : undefined;
  return { id: value.id, encrypted_content: typeof encrypted === "string" ? encrypted : null };
}

function imagePart(image: ImageContent, model: Model): ResponseInputContent {
  if (!model.input.includes("image")) return { type: "input_text", text: IMAGE_OMITTED };
  return { type: "input_image", image_url: `data:${image.mimeType};base64,${image.data}`, detail: "auto" };
}

function userItem(message: UserMessage, model: Model): ResponseInputItem {
  if (typeof message.content === "string") return { role: "user", content: message.content };
  const content = message.content.map((block) =>
    block.type === "text" ? { type: "input_text" as const, text: block.text } : imagePart(block, model),
  );
  return { role: "user", content };
}

/**
 * An earlier assistant turn. Reasoning items go back only from this API and only for a turn that
 * called tools: the model needs its reasoning across the calls of one turn, and ignores it once a
 * turn has answered. Thinking from another API is left out (it cannot be verified here).
 */
function assistantItems(message: AssistantMessage): ResponseInputItem[] {
  const sameWire = message.api === OPENAI_RESPONSES_API;
  const callsTools = message.content.some((block) => block.type === "toolCall");
  const out: ResponseInputItem[] = [];
  for (const block of message.content) {
    if (block.type === "thinking") {
      const ref = sameWire && callsTools ? reasoningRef(block.signature) : undefined;
      if (!ref) continue;
      const summary = block.thinking ? [{ type: "summary_text" as const, text: block.thinking }] : [];
      out.push({ type: "reasoning", id: ref.id, summary, encrypted_content: ref.encrypted_content ?? null });
    } else if (block.type === "text") {
      if (block.text) out.push({ role: "assistant", content: block.text });
    } else {
      const { callId, itemId } = splitCallId(block.id);
      const call: ResponseInputItem = {
        type: "function_call",
        call_id: callId,
        name: block.name,
        arguments: JSON.stringify(block.arguments),
      };
      out.push(sameWire && itemId ? { ...call, id: itemId } : call);
    }
  }
  return out;
}

function toolOutput(message: ToolResultMessage): ResponseInputItem {
  const text = message.content
    .filter((block): block is TextContent => block.type === "text")
    .map((block) => block.text)
    .join("\n");
  return {
    type: "function_call_output",
    call_id: splitCallId(message.toolCallId).callId,
    output: message.isError ? `Error: ${text}` : text,
  };
}

/** Our history as Responses API input items; images a tool returned follow its output as a user message. */
export function toResponsesInput(context: Context, model: Model): ResponseInputItem[] {
  const out: ResponseInputItem[] = [];
  for (const message of context.messages) {
    if (message.role === "user") out.push(userItem(message, model));
    else if (message.role === "assistant") out.push(...assistantItems(message));
    else {
      out.push(toolOutput(message));
      const images = message.content.filter((block): block is ImageContent => block.type === "image");
      if (images.length && model.input.includes("image"))
        out.push({ role: "user", content: images.map((image) => imagePart(image, model)) });
    }
  }
  return out;
}

function tools(context: Context): FunctionTool[] | undefined {
  if (!context.tools?.length) return undefined;
  return context.tools.map((tool) => ({
    type: "function",
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters,
    strict: false,
  }));
}

/** Options that shape every Responses request a brain sends. */
export interface ResponsesRequestOptions {
  /** Reasoning summaries to ask for: `auto` (default), `concise`, `detailed`, or `off` (none). */
  reasoningSummary: "auto" | "concise" | "detailed" | "off";
  /** Send `request.cacheKey` as `prompt_cache_key`. */
  promptCacheKey: boolean;
}

/**
 * The whole streaming request body. Stateless (`store: false`): nothing is kept on OpenAI's side,
 * so reasoning models are asked for `reasoning.encrypted_content`, which the next turn carries
 * back. `request.stop` has no Responses API field and is not sent.
 */
export function buildResponsesRequest(
  model: Model,
  context: Context,
  request: BrainRequest,
  options: ResponsesRequestOptions,
): ResponsesRequestBody {
  const body: ResponsesRequestBody = {
    model: model.id,
    input: toResponsesInput(context, model),
    stream: true,
    store: false,
    max_output_tokens: request.maxTokens ?? model.maxTokens,
  };
  if (context.systemPrompt) body.instructions = context.systemPrompt;
  const functionTools = tools(context);
  if (functionTools) body.tools = functionTools;
  if (options.promptCacheKey && request.cacheKey) body.prompt_cache_key = request.cacheKey;
  const level = request.reasoning;
  if (model.reasoning) {
    body.include = ["reasoning.encrypted_content"];
    if (level === "off") {
      if (model.thinkingOff) body.reasoning = { effort: "none" };
    } else if (level !== undefined) {
      body.reasoning = { effort: level };
      if (options.reasoningSummary !== "off") body.reasoning.summary = options.reasoningSummary;
    }
  }
  return body;
}

export const OPENAI_RESPONSES_API = "openai-responses";
