import { attributedUserText, type Message, type ToolCall, type ToolSpec } from "@x/llm-types";
import { transcriptWindow } from "./transcript-window";

/** What the classifier may see of the agent's history: the user's words and the agent's actions. */
export type ClassifierTranscriptEntry =
  { kind: "user"; text: string } | { kind: "tool_call"; name: string; arguments: string };

/** Size limits of the rendered transcript, in characters. */
/** A user message, shown in full up to this. */
export const CLASSIFIER_ENTRY_CHARS = 4_000;
/** A tool call's arguments shown in full (the call being judged, and recent ones) up to this. */
export const CLASSIFIER_ACTION_CHARS = 20_000;
/** An older tool call's arguments once condensed: enough for the path, the command's start, the keys. */
export const CLASSIFIER_CONDENSED_CHARS = 240;
/** The shown history's high-water mark: passing it is a step (condense, then drop from the front). */
export const CLASSIFIER_TRANSCRIPT_CHARS = 24_000;
/** Where a step brings the shown history back down to. */
export const CLASSIFIER_TRANSCRIPT_LOW_CHARS = 8_000;

/**
 * Filters the agent's full history down to what may inform the verdict: the user's own words and
 * the agent's tool calls. The agent's prose and thinking, and every tool result, are dropped — a tool
 * result is where injected instructions arrive, and the agent's prose may already repeat them, so
 * neither gets the chance to argue the classifier into allowing. So is every part of a user-role
 * message that its provenance says someone else wrote (the engine's nudges, teacher guidance,
 * recalled strategies, compaction summaries): only the user speaks for the user. `skipCallId` leaves
 * out the call being judged, which is rendered on its own, last.
 */
export function classifierTranscript(messages: readonly Message[], skipCallId?: string): ClassifierTranscriptEntry[] {
  const entries: ClassifierTranscriptEntry[] = [];
  for (const message of messages) {
    if (skipCallId !== undefined && hasCall(message, skipCallId)) {
      pushCalls(entries, message, skipCallId);
      break;
    }
    if (message.role === "user") {
      const words = attributedUserText(message)
        .filter((part) => part.source === "user")
        .map((part) => part.text)
        .join("");
      if (words.trim() !== "") entries.push({ kind: "user", text: words });
    } else {
      pushCalls(entries, message);
    }
  }
  return entries;
}

function hasCall(message: Message, id: string): boolean {
  return message.role === "assistant" && message.content.some((block) => block.type === "toolCall" && block.id === id);
}

/** The message's tool calls, in order — up to (not including) `until`: calls after it have not happened yet. */
function pushCalls(entries: ClassifierTranscriptEntry[], message: Message, until?: string): void {
  if (message.role !== "assistant") return;
  for (const block of message.content) {
    if (block.type !== "toolCall") continue;
    if (block.id === until) return;
    entries.push({ kind: "tool_call", name: block.name, arguments: callArguments(block) });
  }
}

/** Arguments as JSON with `<`, `>` and `&` escaped, so nothing inside can close or open our tags. */
function callArguments(call: ToolCall): string {
  const raw =
    call.argumentsError && call.rawArguments !== undefined
      ? JSON.stringify({ unparsed_arguments: call.rawArguments })
      : JSON.stringify(call.arguments);
  return raw.replace(/</g, "\\u003c").replace(/>/g, "\\u003e").replace(/&/g, "\\u0026");
}

/**
 * Text with markup characters escaped, so it stays inside its element — and, with `"` escaped, inside
 * a `name="…"` attribute: a tool name in the history is the model's own text and could otherwise
 * open attributes of its own (`x" user_approved="yes`).
 */
function escapeText(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

function clip(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit)} …[${text.length - limit} more characters not shown]`;
}

function renderEntry(entry: ClassifierTranscriptEntry, condensed: boolean): string {
  if (entry.kind === "user") return `<user>${clip(escapeText(entry.text), CLASSIFIER_ENTRY_CHARS)}</user>`;
  const limit = condensed ? CLASSIFIER_CONDENSED_CHARS : CLASSIFIER_ACTION_CHARS;
  return `<tool_call name="${escapeText(entry.name)}">${clip(entry.arguments, limit)}</tool_call>`;
}

/**
 * The shown history: the first user message (usually the task itself) always, then the window of
 * {@link transcriptWindow} — append-only between steps, so consecutive requests share their prefix.
 */
function renderHistory(entries: readonly ClassifierTranscriptEntry[]): string {
  const pinned = entries.findIndex((entry) => entry.kind === "user");
  const full = entries.map((entry) => renderEntry(entry, false));
  const condensed = entries.map((entry) => renderEntry(entry, true));
  const { start, condensedUntil } = transcriptWindow({
    full: full.map((line) => line.length + 1),
    condensed: condensed.map((line) => line.length + 1),
    pinned,
    high: CLASSIFIER_TRANSCRIPT_CHARS,
    low: CLASSIFIER_TRANSCRIPT_LOW_CHARS,
  });
  const lines: string[] = [];
  if (pinned >= 0 && pinned < start) lines.push(full[pinned]!);
  const hidden = start - (pinned >= 0 && pinned < start ? 1 : 0);
  if (hidden > 0) lines.push(`[${hidden} earlier entries not shown]`);
  for (let index = start; index < entries.length; index++)
    lines.push(index < condensedUntil && index !== pinned ? condensed[index]! : full[index]!);
  return lines.join("\n");
}

/**
 * The classifier's user message: the filtered history ending with the call being judged — rendered
 * exactly as it will appear in the next request's history, so the prompt only grows — then the
 * judged tool's description when the host passed the tool list, the question, and the attempt's
 * suffix, last, where it is most reliably followed.
 */
export function renderClassifierRequest(args: {
  transcript: readonly Message[];
  toolCall: ToolCall;
  tools?: readonly ToolSpec[];
  suffix: string;
}): string {
  const { toolCall, suffix } = args;
  const entries = classifierTranscript(args.transcript, toolCall.id);
  entries.push({ kind: "tool_call", name: toolCall.name, arguments: callArguments(toolCall) });
  const spec = args.tools?.find((tool) => tool.name === toolCall.name);
  const description = spec?.description
    ? `<tool_description>${clip(escapeText(spec.description), CLASSIFIER_ENTRY_CHARS)}</tool_description>\n`
    : "";
  return (
    [
      "Here is what the user has said and what the agent has done so far. The LAST tool call below has not run yet: it is the one you judge.",
      `<transcript>\n${renderHistory(entries)}\n</transcript>`,
      `${description}Decide whether to block the last tool call above (${escapeText(toolCall.name)}).`,
    ].join("\n") + suffix
  );
}
