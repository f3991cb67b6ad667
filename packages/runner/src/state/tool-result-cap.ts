import type { ToolResultMessage } from "@x/llm-types";

/** Share of a capped result kept from its head; the rest of the room goes to its tail. */
const HEAD_SHARE = 0.6;

function marker(cut: number): string {
  return (
    `\n[… ${cut} characters cut from the middle of this tool ` +
    "result to fit the context; the host keeps the full result …]\n"
  );
}

/** A text cut to `max` characters (marker included): its head and tail kept, the middle replaced by a marker. */
export function capText(text: string, max: number): string {
  if (text.length <= max) return text;
  const room = Math.max(0, max - marker(text.length).length);
  const head = Math.ceil(room * HEAD_SHARE);
  const tail = room - head;
  return text.slice(0, head) + marker(text.length - room) + (tail > 0 ? text.slice(text.length - tail) : "");
}

/**
 * A tool result as the model sees it when its text passes `max` characters: each text block is cut
 * head + tail. The message the run returns keeps the full result: only the model's view is cut.
 */
export function capToolResult(message: ToolResultMessage, max: number): ToolResultMessage {
  if (!message.content.some((block) => block.type === "text" && block.text.length > max)) return message;
  return {
    ...message,
    content: message.content.map((block) =>
      block.type === "text" ? { ...block, text: capText(block.text, max) } : block,
    ),
  };
}
