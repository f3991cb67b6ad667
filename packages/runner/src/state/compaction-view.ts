import {
  attributedUserText,
  joinAttributed,
  type AttributedText,
  type Message,
  type ToolResultMessage,
  type UserMessage,
} from "@x/llm-types";
import type { ResolvedCompaction } from "../vocabulary/compaction-options";
import type { CompactionState } from "../vocabulary/compaction-state";
import { capToolResult } from "./tool-result-cap";

/** Opens the summary message: the model (and anyone reading the context) learns who wrote it. */
export const COMPACTION_HEADER =
  "[Compaction note, written by the engine — not the user. Earlier turns of this task were folded into it.]";

/**
 * The user's own words among `messages`, verbatim, one entry per stretch a message's provenance gives
 * the user: engine notes, teacher guidance and recalled strategies are not the user's words, even
 * when they share a message with them (strategies written ahead of the task).
 */
export function userWords(messages: readonly Message[]): string[] {
  return messages.flatMap((message) =>
    message.role === "user"
      ? attributedUserText(message).flatMap((part) =>
          part.source === "user" && part.text.trim() !== "" ? [part.text] : [],
        )
      : [],
  );
}

/**
 * The message standing for every folded turn: the user's words verbatim, then the summary. Its
 * provenance splits it: each of the user's words stays the user's, every character the engine wrote
 * around them (the header, the frames, the summary itself) is `compaction` — so a classifier reading
 * it hears the user, and never a summary that claims the user said something.
 */
export function summaryMessage(folded: readonly Message[], state: CompactionState): UserMessage {
  const words = userWords(folded);
  const pieces: AttributedText[] = [
    { source: "compaction", text: `${COMPACTION_HEADER}\n\nThe user's messages so far, verbatim:\n` },
  ];
  if (words.length === 0) pieces.push({ source: "compaction", text: "(none)" });
  for (const [i, text] of words.entries())
    pieces.push(
      { source: "compaction", text: `${i === 0 ? "" : "\n"}<user_message>\n` },
      { source: "user", text },
      { source: "compaction", text: "\n</user_message>" },
    );
  pieces.push({ source: "compaction", text: `\n\nSummary of the work so far:\n${state.summary}` });
  const { text, provenance } = joinAttributed(pieces);
  return { role: "user", content: text, provenance };
}

const capped = new WeakMap<ToolResultMessage, { max: number; view: ToolResultMessage }>();

/**
 * A message as the model is sent it: a huge tool result cut head + tail (to its tool's cap, or the
 * tighter `tailMax` a compaction set), the other messages as they are.
 */
export function viewOf(message: Message, options: ResolvedCompaction, tailMax = Infinity): Message {
  if (message.role !== "toolResult") return message;
  const max = Math.min(
    tailMax,
    Object.hasOwn(options.toolResultMaxCharsByTool, message.toolName)
      ? options.toolResultMaxCharsByTool[message.toolName]!
      : options.toolResultMaxChars,
  );
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
  const tailMax = state?.tailResultMaxChars;
  const tail = all.slice(state?.cut ?? 0).map((message) => viewOf(message, options, tailMax));
  if (!state || state.cut === 0) return tail;
  return [summaryMessage(all.slice(0, state.cut), state), ...tail];
}
