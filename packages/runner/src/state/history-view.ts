import { contextSize, type ContextSize } from "@x/brain-kit";
import type { AssistantMessage, Message } from "@x/llm-types";
import type { ResolvedCompaction } from "../vocabulary/compaction-options";
import { viewOf } from "./compaction-view";
import { checkHistory } from "./known-messages";

/**
 * What every model call of a run needs from the host's history, derived once: a host passes its
 * conversation back on every task, and deriving this per call (checking, copying and measuring
 * every entry on every turn) made a turn's cost grow with the conversation.
 */
export interface HistoryView {
  /** The history's entries, a copy of the host's array as it was when the run started. */
  entries: readonly Message[];
  /** Each entry as the model is sent it (a huge tool result cut head + tail; the entry itself with compaction off). */
  view: readonly Message[];
  /** The size of `view`, for the token estimate. */
  size: ContextSize;
  /** Index of the last assistant entry that reported its input, or -1: the base of the next estimate. */
  lastReport: number;
  /** The size of `view` from `lastReport` on (all of it when there is no report). */
  sinceReport: ContextSize;
}

interface Memo extends HistoryView {
  options: ResolvedCompaction | undefined;
  /** Leading entries checked with `checkHistory`. */
  checked: number;
}

/**
 * One memo per history array, reused by the next run given the same array while it still holds
 * the same entries — a pass comparing identities, far cheaper than anything it saves — and
 * extended by what the host appended. An entry replaced or removed rebuilds it. Identity, not
 * content: a host that edits a message object it passed answers for the edit, as `checkHistory`
 * says.
 */
const memos = new WeakMap<readonly Message[], Memo>();

/** Input tokens an assistant turn reported (0: it reported none). */
export function reportedInput(message: AssistantMessage): number {
  return message.usage.input + message.usage.cacheRead + message.usage.cacheWrite;
}

/** A usable base for the estimate: an answered turn whose provider reported its input. */
export function isReport(message: Message): message is AssistantMessage {
  return message.role === "assistant" && message.stopReason !== "error" && reportedInput(message) > 0;
}

export function addSizes(a: ContextSize, b: ContextSize): ContextSize {
  return { chars: a.chars + b.chars, images: a.images + b.images };
}

function sameStart(memo: Memo, history: readonly Message[]): boolean {
  if (history.length < memo.entries.length) return false;
  for (let i = 0; i < memo.entries.length; i++) if (history[i] !== memo.entries[i]) return false;
  return true;
}

// A memo's arrays are never changed once made, only replaced by longer ones: a run keeps the view it
// started with while a later run, given the host's longer array, extends the memo.
function extend(memo: Memo, history: readonly Message[]): void {
  const from = memo.entries.length;
  if (history.length === from) return;
  const added = history.slice(from);
  const views = memo.options ? added.map((entry) => viewOf(entry, memo.options!)) : added;
  for (const [i, entry] of added.entries()) {
    const size = contextSize({ messages: [views[i]!] });
    memo.size = addSizes(memo.size, size);
    if (isReport(entry)) {
      memo.lastReport = from + i;
      memo.sinceReport = size;
    } else {
      memo.sinceReport = addSizes(memo.sinceReport, size);
    }
  }
  memo.entries = memo.entries.concat(added);
  memo.view = memo.view.concat(views);
}

/**
 * The {@link HistoryView} of `history` under a runner's compaction options. With `subject`, the
 * entries not checked before are checked with `checkHistory` (a `SchemaValidationError` naming
 * `history[i]` otherwise); without it the caller vouches for them (a verified park or checkpoint).
 */
export function historyView(
  history: readonly Message[],
  options: ResolvedCompaction | undefined,
  subject?: string,
): HistoryView {
  let memo = memos.get(history);
  if (!memo || memo.options !== options || !sameStart(memo, history)) {
    const none = { chars: 0, images: 0 };
    memo = { entries: [], view: [], size: none, lastReport: -1, sinceReport: none, options, checked: 0 };
    memos.set(history, memo);
  }
  if (subject !== undefined && memo.checked < history.length) {
    checkHistory(history, subject, memo.checked);
    memo.checked = history.length;
  }
  extend(memo, history);
  const { entries, view, size, lastReport, sinceReport } = memo;
  return { entries, view, size, lastReport, sinceReport };
}
