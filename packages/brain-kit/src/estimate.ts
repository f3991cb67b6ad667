import type { AssistantMessage, Context, Message, ToolSpec } from "@x/llm-types";

/** Rough token count of a text: one token per four characters, rounded up. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Flat charge for an image; providers bill images by size, a guess is all we have offline. */
const IMAGE_TOKENS = 1000;

/**
 * What the estimate counts in a context: characters of text and images. Sizes of parts add up to
 * the size of the whole, so a caller that keeps a long conversation's size can add what it appends
 * instead of counting everything again.
 */
export interface ContextSize {
  /** Characters of the system prompt, the messages' text and tool calls, and the tool specs. */
  chars: number;
  /** Images, charged a flat amount each. */
  images: number;
}

// A tool spec's size is its serialised parameters, the same on every call: counted once per spec object.
const toolChars = new WeakMap<ToolSpec, number>();

function charsOfTool(tool: ToolSpec): number {
  let chars = toolChars.get(tool);
  if (chars === undefined) {
    chars = tool.name.length + tool.description.length + JSON.stringify(tool.parameters).length;
    toolChars.set(tool, chars);
  }
  return chars;
}

/** The {@link ContextSize} of some messages, with the system prompt and tools when given. */
export function contextSize(
  context: { messages: readonly Message[] } & Partial<Omit<Context, "messages">>,
): ContextSize {
  let chars = context.systemPrompt?.length ?? 0;
  let images = 0;
  for (const message of context.messages) {
    if (typeof message.content === "string") {
      chars += message.content.length;
      continue;
    }
    for (const block of message.content) {
      if (block.type === "image") images++;
      else if (block.type === "text") chars += block.text.length;
      else if (block.type === "thinking") chars += block.thinking.length;
      else chars += block.name.length + (block.rawArguments ?? JSON.stringify(block.arguments)).length;
    }
  }
  for (const tool of context.tools ?? []) chars += charsOfTool(tool);
  return { chars, images };
}

/** The tokens a {@link ContextSize} is estimated at: characters / 4, rounded up, plus the images' charge. */
export function tokensOfSize(size: ContextSize): number {
  return Math.ceil(size.chars / 4) + size.images * IMAGE_TOKENS;
}

/** Rough prompt size of a context (system prompt, messages, tool specs) when a provider reports none. */
export function estimateContextTokens(context: Context): number {
  return tokensOfSize(contextSize(context));
}

/** Rough output size of an assistant turn: its text, thinking and tool-call arguments. */
export function estimateOutputTokens(message: Pick<AssistantMessage, "content">): number {
  let chars = 0;
  for (const block of message.content) {
    if (block.type === "text") chars += block.text.length;
    else if (block.type === "thinking") chars += block.redacted ? 0 : block.thinking.length;
    else chars += block.name.length + (block.rawArguments ?? JSON.stringify(block.arguments)).length;
  }
  return Math.ceil(chars / 4);
}
