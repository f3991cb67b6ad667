/**
 * What the reader finds in a classifier reply's text: a ruling, or why there is none. `missing` —
 * no answer at all (asked again); `conflict` — an answer the grammar cannot take as a clean one:
 * a "no" anywhere but alone at the start, or answers that disagree (never asked again).
 */
export type ClassifierVerdict =
  | { kind: "verdict"; block: boolean; reason?: string; form: "tag" | "bare" }
  | { kind: "parse_error"; form: "missing" | "conflict" };

const MAX_REASON_CHARS = 500;

/**
 * A thinking tag as models really write it: any case, whitespace or attributes after the name
 * (`<thinking >`, `<think foo="1">`, `</THINK >`). The name must end there, so `<thinker>` is text.
 */
const THINK_TAG = /<\s*(\/?)\s*(?:thinking|think)(?=[\s>/])[^>]*>/gi;

/** The reply's text with reasoning taken out, and whether reasoning sat inside or after the answer. */
interface VisibleText {
  text: string;
  /** Reasoning was removed from a place after visible text had begun: the answer was interrupted. */
  interrupted: boolean;
}

/**
 * Walks the thinking tags once, left to right: text inside a span is dropped; a closer with no
 * opener drops everything before it (reasoning whose opener the chat template swallowed); an
 * opener never closed drops everything after it (a verdict written mid-thought is not an answer).
 * Each step only removes text, so it errs toward "missing".
 */
function visibleText(text: string): VisibleText {
  let visible = "";
  let interrupted = false;
  let depth = 0;
  let at = 0;
  for (const tag of text.matchAll(THINK_TAG)) {
    if (depth === 0) visible += text.slice(at, tag.index);
    at = tag.index + tag[0].length;
    if (tag[1] !== "/") {
      if (depth === 0 && visible.trim() !== "") interrupted = true;
      depth++;
    } else if (depth > 0) {
      depth--;
    } else {
      visible = "";
      interrupted = false;
    }
  }
  if (depth === 0) visible += text.slice(at);
  else if (visible.trim() !== "") interrupted = true;
  return { text: visible, interrupted };
}

/** The reply's visible text: reasoning in `<thinking>`/`<think>` (any spelling) removed, closed or cut. */
export function stripClassifierThinking(text: string): string {
  return visibleText(text).text;
}

/** ASCII whitespace only: a no-break or zero-width space is not the padding of a clean answer. */
const WS = "[ \\t\\r\\n]*";
/** The one clean allow: the visible text is this and nothing else. The closer may be cut by a stop sequence. */
const CLEAN_NO = new RegExp(`^${WS}<block${WS}>${WS}no${WS}(?:</block${WS}>${WS})?$`, "i");
/** Anything that opens a `<block>` element, loosely: a second one, however spelled, means "not one answer". */
const ANY_OPENER = /<\s*block\b[^>]*>/gi;
/** The word right after an opener; it must end there (`nope`, `yesterday` are not answers). */
const ANSWER_WORD = /[ \t\r\n]*(yes|no)(?![\p{L}\p{N}_])/iuy;
/** What may follow a word cut at the end of a reply: part of its closing tag, never the whole. */
const CUT_TAIL = /[ \t\r\n]*(?:<(?:\/(?:b(?:l(?:o(?:c(?:k[ \t\r\n]*)?)?)?)?)?)?)?$/iy;

interface Answer {
  block: boolean;
  /** Index just past the answer word. */
  end: number;
}

function matchAt(pattern: RegExp, text: string, at: number): RegExpExecArray | null {
  pattern.lastIndex = at;
  return pattern.exec(text);
}

/**
 * Every `<block>` opener followed by an answer word. In a cut reply a "no" that runs into the end
 * of the text is a fragment (it may have been on its way to "not sure", or to a reversal) and is no
 * answer; a "yes" there still counts, because blocking is never the unsafe reading.
 */
function answers(visible: string, complete: boolean): Answer[] {
  const found: Answer[] = [];
  for (const open of visible.matchAll(ANY_OPENER)) {
    const start = open.index + open[0].length;
    const word = matchAt(ANSWER_WORD, visible, start);
    if (!word?.[1]) continue;
    const block = word[1].toLowerCase() === "yes";
    const end = start + word[0].length;
    if (!complete && !block && matchAt(CUT_TAIL, visible, end)) continue;
    found.push({ block, end });
  }
  return found;
}

const REASON = /<reason\s*>([\s\S]*?)(?:<\/reason\s*>|$)/i;

function reasonAfter(visible: string, from: number): string | undefined {
  const match = REASON.exec(visible.slice(from));
  const reason = match?.[1]?.replace(/\s+/g, " ").trim();
  if (!reason) return undefined;
  return reason.length > MAX_REASON_CHARS ? `${reason.slice(0, MAX_REASON_CHARS - 1)}…` : reason;
}

const BARE_ANSWER = /^(yes|no)[.!]?$/i;

/**
 * Reads a verdict out of reply text, by the grammar in the package README:
 *
 * - ALLOW only when the visible text (reasoning stripped) IS the answer: optional whitespace,
 *   `<block>` (whitespace allowed inside the tag), `no`, optionally `</block>`, optional
 *   whitespace — nothing before, nothing after, no reasoning in between, in a COMPLETE reply.
 *   The closer may be missing only because a stop sequence ended the reply there.
 * - BLOCK on any tagged `yes` (with the `<reason>` after the first one), or a complete reply that
 *   is only the word `yes`.
 * - CONFLICT, never asked again, when a tagged `no` is anywhere else: after text, followed by text
 *   or a `<reason>` (the reason may argue for blocking, and we will not judge prose), beside a
 *   second opener, beside a `yes`.
 * - MISSING, asked once more, when there is no answer word at all — including a bare `no` and,
 *   in a cut reply, a `<block>no` prefix whose continuation nobody saw.
 *
 * `complete: false` is for a reply that did not end normally (cap, dropped stream, tool call, a
 * stamped `errorKind`): it never allows.
 */
export function readClassifierVerdict(text: string, options: { complete: boolean }): ClassifierVerdict {
  const { text: visible, interrupted } = visibleText(text);
  const found = answers(visible, options.complete);
  const yes = found.find((answer) => answer.block);
  const anyNo = found.some((answer) => !answer.block);
  if (yes && anyNo) return { kind: "parse_error", form: "conflict" };
  if (yes) {
    const reason = reasonAfter(visible, yes.end);
    return { kind: "verdict", block: true, form: "tag", ...(reason ? { reason } : {}) };
  }
  if (!anyNo) {
    const bare = options.complete ? BARE_ANSWER.exec(visible.trim()) : null;
    if (bare?.[1]?.toLowerCase() === "yes") return { kind: "verdict", block: true, form: "bare" };
    return { kind: "parse_error", form: "missing" };
  }
  const clean = !interrupted && CLEAN_NO.test(visible);
  if (clean && options.complete) return { kind: "verdict", block: false, form: "tag" };
  // A cut reply that is a clean no so far is a prefix: what followed is unknown, so it is asked again.
  return { kind: "parse_error", form: clean ? "missing" : "conflict" };
}
