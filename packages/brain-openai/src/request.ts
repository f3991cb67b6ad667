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
  ChatCompletionAssistantMessageParam,
  ChatCompletionContentPart,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from "openai/resources/chat/completions";
import type { OpenAICompat } from "./compat";

/** The request body sent for one call. Gateway-only fields ride along untyped. */
export type OpenAIRequestBody = ChatCompletionCreateParamsStreaming & {
  chat_template_kwargs?: { enable_thinking: boolean };
  enable_thinking?: boolean;
  reasoning?: { effort: string };
};

const IMAGE_OMITTED = "[image omitted: this model takes text only]";

function imagePart(image: ImageContent, model: Model): ChatCompletionContentPart {
  if (!model.input.includes("image")) return { type: "text", text: IMAGE_OMITTED };
  return { type: "image_url", image_url: { url: `data:${image.mimeType};base64,${image.data}` } };
}

function userMessage(message: UserMessage, model: Model): ChatCompletionMessageParam {
  if (typeof message.content === "string") return { role: "user", content: message.content };
  const parts = message.content.map((block): ChatCompletionContentPart =>
    block.type === "text" ? { type: "text", text: block.text } : imagePart(block, model),
  );
  return { role: "user", content: parts };
}

/**
 * An earlier assistant turn. Thinking is not sent back: Chat Completions has no field for it and
 * the gateways that stream `reasoning_content` ask clients not to return it. A tool call whose
 * arguments never parsed goes back as `{}` — gateways re-parse `arguments` and would reject the
 * broken text; the runner's error result already tells the model what went wrong.
 */
function assistantMessage(message: AssistantMessage): ChatCompletionAssistantMessageParam | undefined {
  const text = message.content
    .filter((block): block is TextContent => block.type === "text")
    .map((block) => block.text)
    .join("");
  const toolCalls = message.content.flatMap((block) =>
    block.type === "toolCall"
      ? [
          {
            id: block.id,
            type: "function" as const,
            function: { name: block.name, arguments: JSON.stringify(block.arguments) },
          },
        ]
      : [],
  );
  if (!text && toolCalls.length === 0) return undefined;
  const out: ChatCompletionAssistantMessageParam = { role: "assistant", content: text || null };
  if (toolCalls.length) out.tool_calls = toolCalls;
  return out;
}

function toolResultText(message: ToolResultMessage, model: Model): string {
  const text = message.content
    .map((block) =>
      block.type === "text" ? block.text : model.input.includes("image") ? "[image attached below]" : IMAGE_OMITTED,
    )
    .join("\n");
  return message.isError ? `Error: ${text}` : text;
}

/** Our context as Chat Completions messages. */
export function toOpenAIMessages(context: Context, model: Model): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [];
  if (context.systemPrompt) out.push({ role: "system", content: context.systemPrompt });
  // Tool messages carry text only; images a tool returned follow the run of tool messages as a user message.
  let pendingImages: ChatCompletionContentPart[] = [];
  const flushImages = () => {
    if (pendingImages.length)
      out.push({
        role: "user",
        content: [{ type: "text", text: "Images returned by the tools above:" }, ...pendingImages],
      });
    pendingImages = [];
  };
  for (const message of context.messages) {
    if (message.role !== "toolResult") flushImages();
    if (message.role === "user") out.push(userMessage(message, model));
    else if (message.role === "assistant") {
      const mapped = assistantMessage(message);
      if (mapped) out.push(mapped);
    } else {
      out.push({ role: "tool", tool_call_id: message.toolCallId, content: toolResultText(message, model) });
      if (model.input.includes("image")) {
        for (const block of message.content) if (block.type === "image") pendingImages.push(imagePart(block, model));
      }
    }
  }
  flushImages();
  return out;
}

export function toOpenAITools(context: Context): ChatCompletionTool[] | undefined {
  if (!context.tools?.length) return undefined;
  return context.tools.map((tool) => ({
    type: "function",
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }));
}

/** Reasoning fields for this call, per the endpoint's compat flavour. Nothing for non-reasoning models. */
function reasoningFields(model: Model, request: BrainRequest, compat: OpenAICompat): Partial<OpenAIRequestBody> {
  const level = request.reasoning;
  if (!model.reasoning || level === undefined) return {};
  switch (compat.thinkingSwitch) {
    case "reasoning_effort":
      if (level === "off") return model.thinkingOff ? { reasoning_effort: "none" } : {};
      return { reasoning_effort: level };
    case "enable_thinking":
      if (level === "off") return model.thinkingOff ? { chat_template_kwargs: { enable_thinking: false } } : {};
      return { chat_template_kwargs: { enable_thinking: true } };
    case "enable_thinking_param":
      if (level === "off") return model.thinkingOff ? { enable_thinking: false } : {};
      return { enable_thinking: true };
    case "reasoning_object":
      if (level === "off") return model.thinkingOff ? { reasoning: { effort: "none" } } : {};
      return { reasoning: { effort: level } };
    case "none":
      return {};
  }
}

/** The whole streaming request body for one call. */
export function buildOpenAIRequest(
  model: Model,
  context: Context,
  request: BrainRequest,
  compat: OpenAICompat,
): OpenAIRequestBody {
  const body: OpenAIRequestBody = {
    model: model.id,
    messages: toOpenAIMessages(context, model),
    stream: true,
    stream_options: { include_usage: true },
  };
  body[compat.maxTokensField] = request.maxTokens ?? model.maxTokens;
  const tools = toOpenAITools(context);
  if (tools) body.tools = tools;
  if (request.stop?.length) body.stop = request.stop;
  if (compat.promptCacheKey && request.cacheKey) body.prompt_cache_key = request.cacheKey;
  return { ...body, ...reasoningFields(model, request, compat) };
}
