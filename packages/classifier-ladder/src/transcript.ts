import { attributedUserText, type Message, type ToolCall, type ToolSpec } from "@x/llm-types";

/** What the classifier may see of the agent's history: the user's words and the agent's actions. */
export type ClassifierTranscriptEntry =
  { kind: "user"; text: string } | { kind: "tool_call"; name: string; arguments: string };

/** Per-entry and whole-history size limits of the rendered transcript, in characters. */
export const CLASSIFIER_ENTRY_CHARS = 4_000;
export const CLASSIFIER_TRANSCRIPT_CHARS = 40_000;
export const CLASSIFIER_ACTION_CHARS = 20_000;

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
    if (message.role === "user") {
      const words = attributedUserText(message)
        .filter((part) => part.source === "user")
        .map((part) => part.text)
        .join("");
      if (words.trim() !== "") entries.push({ kind: "user", text: words });
    } else if (message.role === "assistant") {
      for (const block of message.content) {
        if (block.type === "toolCall" && block.id !== skipCallId)
          entries.push({ kind: "tool_call", name: block.name, arguments: callArguments(block) });
      }
    }
  }
  return entries;
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

function renderEntry(entry: ClassifierTranscriptEntry): string {
  return entry.kind === "user"
    ? `<user>${clip(escapeText(entry.text), CLASSIFIER_ENTRY_CHARS)}</user>`
    : `<tool_call name="${escapeText(entry.name)}">${clip(entry.arguments, CLASSIFIER_ENTRY_CHARS)}</tool_call>`;
}

/**
 * Keeps the first user message (usually the task itself) and as many of the most recent entries as
 * fit the budget, noting how many were left out in between.
 */
function renderHistory(entries: readonly ClassifierTranscriptEntry[]): string {
  const rendered = entries.map(renderEntry);
  const firstUser = entries.findIndex((entry) => entry.kind === "user");
  const kept = new Set<number>();
  let used = 0;
  if (firstUser >= 0) {
    kept.add(firstUser);
    used += rendered[firstUser]!.length;
  }
  for (let index = rendered.length - 1; index >= 0; index--) {
    if (kept.has(index)) continue;
    const size = rendered[index]!.length;
    if (used + size > CLASSIFIER_TRANSCRIPT_CHARS) break;
    kept.add(index);
    used += size;
  }
  const lines: string[] = [];
  let skipped = 0;
  rendered.forEach((line, index) => {
    if (kept.has(index)) {
      if (skipped > 0) lines.push(`[${skipped} earlier entries not shown]`);
      skipped = 0;
      lines.push(line);
    } else {
      skipped++;
    }
  });
  return lines.join("\n");
}

/**
 * The classifier's user message: the filtered history, then the call being judged (with its tool's
 * description when the host passed the tool list), then the attempt's suffix — last, where it is
 * most reliably followed.
 */
export function renderClassifierRequest(args: {
  transcript: readonly Message[];
  toolCall: ToolCall;
  tools?: readonly ToolSpec[];
  suffix: string;
}): string {
  const { toolCall, suffix } = args;
  const history = renderHistory(classifierTranscript(args.transcript, toolCall.id));
  const spec = args.tools?.find((tool) => tool.name === toolCall.name);
  const description = spec?.description
    ? `\n<tool_description>${clip(escapeText(spec.description), CLASSIFIER_ENTRY_CHARS)}</tool_description>`
    : "";
  return (
    [
      "Here is what the user has said and what the agent has done so far:",
      `<transcript>\n${history || "(nothing yet)"}\n</transcript>`,
      "",
      "The agent now wants to make this tool call. Decide whether to block it.",
      `<action name="${escapeText(toolCall.name)}">${clip(callArguments(toolCall), CLASSIFIER_ACTION_CHARS)}</action>${description}`,
    ].join("\n") + suffix
  );
}
