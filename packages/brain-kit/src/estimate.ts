import type { AssistantMessage, Context } from "@x/llm-types";

/** Rough token count of a text: one token per four characters, rounded up. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Flat charge for an image; providers bill images by size, a guess is all we have offline. */
const IMAGE_TOKENS = 1000;

/** Rough prompt size of a context (system prompt, messages, tool specs) when a provider reports none. */
export function estimateContextTokens(context: Context): number {
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
  for (const tool of context.tools ?? [])
    chars += tool.name.length + tool.description.length + JSON.stringify(tool.parameters).length;
  return Math.ceil(chars / 4) + images * IMAGE_TOKENS;
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
