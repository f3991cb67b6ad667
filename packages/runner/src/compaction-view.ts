import type { Message, ToolResultMessage } from "@x/llm-types";
import type { ResolvedCompaction } from "./compaction-options";
import type { CompactionState } from "./compaction-state";
import { capToolResult } from "./tool-result-cap";

/** Opens the summary message: the model (and anyone reading the context) learns who wrote it. */
export const COMPACTION_HEADER =
  "[Compaction note, written by the engine — not the user. Earlier turns of this task were folded into it.]";

/** The user's own messages among `messages`, verbatim; engine notes are not the user's words. */
export function userWords(messages: readonly Message[]): string[] {
  return messages.flatMap((m) => {
    if (m.role !== "user" || ("provenance" in m && m.provenance !== undefined && m.provenance !== "user")) return [];
    return [
      typeof m.content === "string" ? m.content : m.content.map((b) => (b.type === "text" ? b.text : "")).join(""),
    ];
  });
}

/** The message standing for every folded turn: the user's words verbatim, then the summary. */
export function summaryMessage(folded: readonly Message[], state: CompactionState): Message {
  const words = userWords(folded)
    .map((text) => `<user_message>\n${text}\n</user_message>`)
    .join("\n");
  const text = `${COMPACTION_HEADER}\n\nThe user's messages so far, verbatim:\n${words || "(none)"}\n\nSummary of the work so far:\n${state.summary}`;
  return { role: "user", content: text, provenance: "compaction" };
}

const capped = new WeakMap<ToolResultMessage, { max: number; view: ToolResultMessage }>();

function viewOf(message: Message, options: ResolvedCompaction): Message {
  if (message.role !== "toolResult") return message;
  const max = Object.hasOwn(options.toolResultMaxCharsByTool, message.toolName)
    ? options.toolResultMaxCharsByTool[message.toolName]!
    : options.toolResultMaxChars;
  // The same cut every call, computed once: the request stays byte-identical, the provider's cache hits.
  const known = capped.get(message);
  if (known?.max === max) return known.view;
  const view = capToolResult(message, max);
  capped.set(message, { max, view });
  return view;
}

/**
 * What the model is sent: with compaction on, the summary (once there is one) and the turns from the
 * cut on, each huge tool result cut head + tail. Between two compactions each request is the last
 * one plus what was appended, so a provider's prompt cache keeps hitting.
 */
export function modelView(
  all: readonly Message[],
  options: ResolvedCompaction | undefined,
  state: CompactionState | undefined,
): Message[] {
  if (!options) return [...all];
  const tail = all.slice(state?.cut ?? 0).map((message) => viewOf(message, options));
  if (!state || state.cut === 0) return tail;
  return [summaryMessage(all.slice(0, state.cut), state), ...tail];
}
