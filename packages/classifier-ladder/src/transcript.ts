import { attributedUserText, type Message, type ToolCall, type ToolSpec } from "@x/llm-types";
import { transcriptWindow } from "./transcript-window";

/** What the classifier may see of the agent's history: the user's words and the agent's actions. */
export type ClassifierTranscriptEntry =
  { kind: "user"; text: string } | { kind: "tool_call"; name: string; arguments: string };

/** The request's first line, ahead of the transcript. */
const CLASSIFIER_REQUEST_OPENING =
  "Here is what the user has said and what the agent has done so far. " +
  "The LAST tool call below has not run yet: it is the one you judge.";

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
 * The user's words are shown wherever the window starts, outside its marks: the first user message
 * (the task), and the newest ones up to this many characters — the request a gated call answers to
 * may be a later message of the session, made long before the call.
 */
export const CLASSIFIER_PINNED_USER_CHARS = 12_000;

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
      // One entry per stretch of the user's words: a compaction summary quotes several messages.
      for (const part of attributedUserText(message))
        if (part.source === "user" && part.text.trim() !== "") entries.push({ kind: "user", text: part.text });
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

/** The user entries always shown: the first, and the newest while they fit {@link CLASSIFIER_PINNED_USER_CHARS}. */
function pinnedUsers(entries: readonly ClassifierTranscriptEntry[], full: readonly string[]): Set<number> {
  const users = entries.flatMap((entry, index) => (entry.kind === "user" ? [index] : []));
  const pinned = new Set(users.slice(0, 1));
  let room = CLASSIFIER_PINNED_USER_CHARS;
  for (const index of users.slice(1).reverse()) {
    room -= full[index]!.length + 1;
    if (room < 0) break;
    pinned.add(index);
  }
  return pinned;
}

/**
 * The shown history: the user's words (see {@link pinnedUsers}) always, then the window of
 * {@link transcriptWindow} — append-only between steps, so consecutive requests share their prefix.
 */
function renderHistory(entries: readonly ClassifierTranscriptEntry[]): string[] {
  const full = entries.map((entry) => renderEntry(entry, false));
  const pinned = pinnedUsers(entries, full);
  const condensed = entries.map((entry) => renderEntry(entry, true));
  const { start, condensedUntil } = transcriptWindow({
    full: full.map((line) => line.length + 1),
    condensed: condensed.map((line) => line.length + 1),
    pinned,
    high: CLASSIFIER_TRANSCRIPT_CHARS,
    low: CLASSIFIER_TRANSCRIPT_LOW_CHARS,
  });
  const before = [...pinned].filter((index) => index < start).sort((a, b) => a - b);
  const lines = before.map((index) => full[index]!);
  const hidden = start - before.length;
  if (hidden > 0) lines.push(`[${hidden} earlier entries not shown]`);
  for (let index = start; index < entries.length; index++)
    lines.push(index < condensedUntil && !pinned.has(index) ? condensed[index]! : full[index]!);
  return lines;
}

/** The classifier's user message, and where its stable prefixes end (`UserMessage.cachePoints`). */
export interface ClassifierRequest {
  text: string;
  /** The end of the opening and of each history line, the judged call's last. */
  cachePoints: number[];
}

/**
 * The classifier's user message: the filtered history ending with the call being judged — rendered
 * exactly as it will appear in the next request's history, so the prompt only grows — then the
 * judged tool's description when the host passed the tool list, the question, and the attempt's
 * suffix, last, where it is most reliably followed. A cache point ends the opening and each line:
 * between two steps of the window the next request repeats this one's text and points up to the
 * judged call, so a cache that matches at block boundaries finds this request's prefix there.
 */
export function classifierRequest(args: {
  transcript: readonly Message[];
  toolCall: ToolCall;
  tools?: readonly ToolSpec[];
  suffix: string;
}): ClassifierRequest {
  const { toolCall, suffix } = args;
  const entries = classifierTranscript(args.transcript, toolCall.id);
  entries.push({ kind: "tool_call", name: toolCall.name, arguments: callArguments(toolCall) });
  const spec = args.tools?.find((tool) => tool.name === toolCall.name);
  const description = spec?.description
    ? `<tool_description>${clip(escapeText(spec.description), CLASSIFIER_ENTRY_CHARS)}</tool_description>\n`
    : "";
  const pieces = [
    `${CLASSIFIER_REQUEST_OPENING}\n<transcript>\n`,
    ...renderHistory(entries).map((line) => `${line}\n`),
  ];
  const cachePoints: number[] = [];
  let at = 0;
  for (const piece of pieces) cachePoints.push((at += piece.length));
  const question =
    `</transcript>\n${description}` +
    `Decide whether to block the last tool call above (${escapeText(toolCall.name)}).`;
  return { text: pieces.join("") + question + suffix, cachePoints };
}

/** {@link classifierRequest}'s text. */
export function renderClassifierRequest(args: Parameters<typeof classifierRequest>[0]): string {
  return classifierRequest(args).text;
}
