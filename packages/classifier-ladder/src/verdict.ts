/**
 * What the reader finds in a classifier reply's text: a ruling, or why there is none. `missing` —
 * no answer at all; `conflict` — answers that disagree (or more than one "no", which is not the
 * single clean allow the gate requires).
 */
export type ClassifierVerdict =
  | { kind: "verdict"; block: boolean; reason?: string; form: "tag" | "bare" }
  | { kind: "parse_error"; form: "missing" | "conflict" };

const MAX_REASON_CHARS = 500;

/** The thinking tags models are known to write into visible text. */
const THINK_PAIR = /<(thinking|think)>[\s\S]*?<\/\1\s*>/gi;
const THINK_OPEN = /<(?:thinking|think)>/i;
const THINK_CLOSE = /<\/(?:thinking|think)\s*>/gi;

/**
 * Removes reasoning from reply text: closed `<thinking>` (or `<think>`) spans; then a closer left
 * without an opener together with everything before it (reasoning whose opener the chat template
 * swallowed); then an opener left unclosed together with everything after it (a verdict written
 * mid-thought is not an answer). Each step can only remove text, so it errs toward "missing".
 */
export function stripClassifierThinking(text: string): string {
  let visible = text.replace(THINK_PAIR, "");
  const lastStrayClose = [...visible.matchAll(THINK_CLOSE)].at(-1);
  if (lastStrayClose) visible = visible.slice(lastStrayClose.index + lastStrayClose[0].length);
  const open = visible.search(THINK_OPEN);
  return open >= 0 ? visible.slice(0, open) : visible;
}

interface TaggedAnswer {
  block: boolean;
  /** Index in the visible text just past the answer (and its closing tag, when present). */
  end: number;
}

const BLOCK_OPEN = /<block>/gi;
// Sticky patterns, matched in place just past each `<block>` (no slicing: a reply full of mentions stays linear).
/** Closed form: any whitespace around the word, then the closing tag. */
const CLOSED_ANSWER = /\s*(yes|no)\s*<\/block\s*>/iy;
/** Open forms need the word right after the tag (horizontal space only), then a reason or the end. */
const OPEN_ANSWER_BEFORE_REASON = /[ \t]*(yes|no)\s*(?=<reason>)/iy;
/** A stop sequence may cut the closing tag anywhere: `<block>no`, `<block>no</bl`. */
const CUT_ANSWER = /[ \t]*(yes|no)\s*(?:<(?:\/(?:b(?:l(?:o(?:c(?:k\s*)?)?)?)?)?)?)?$/iy;

function matchAt(pattern: RegExp, text: string, at: number): RegExpExecArray | null {
  pattern.lastIndex = at;
  return pattern.exec(text);
}

function taggedAnswers(visible: string, complete: boolean): TaggedAnswer[] {
  const answers: TaggedAnswer[] = [];
  for (const open of visible.matchAll(BLOCK_OPEN)) {
    const start = open.index + open[0].length;
    const closed = matchAt(CLOSED_ANSWER, visible, start) ?? matchAt(OPEN_ANSWER_BEFORE_REASON, visible, start);
    const cut = closed ? null : matchAt(CUT_ANSWER, visible, start);
    // In a cut reply an unclosed "no" is a fragment (the word may have been on its way to "not sure");
    // an unclosed "yes" still blocks, and blocking is never the unsafe reading.
    const match = closed ?? (cut && (complete || cut[1]?.toLowerCase() === "yes") ? cut : null);
    // A `<block>` followed by anything else is a mention (the model talking about the format), not an answer.
    if (match?.[1]) answers.push({ block: match[1].toLowerCase() === "yes", end: start + match[0].length });
  }
  return answers;
}

const REASON = /<reason>([\s\S]*?)(?:<\/reason\s*>|$)/i;

function reasonAfter(visible: string, from: number): string | undefined {
  const match = REASON.exec(visible.slice(from));
  const reason = match?.[1]?.replace(/\s+/g, " ").trim();
  if (!reason) return undefined;
  return reason.length > MAX_REASON_CHARS ? `${reason.slice(0, MAX_REASON_CHARS - 1)}…` : reason;
}

const BARE_ANSWER = /^(yes|no)[.!]?$/i;

/**
 * Reads a verdict out of reply text. `<block>yes</block>` blocks, `<block>no</block>` allows; an
 * optional `<reason>` may follow, case and surrounding whitespace do not matter, and reasoning is
 * stripped first. In a COMPLETE reply the closing tag may be missing (a stop sequence cuts it).
 *
 * `complete: false` is for a reply that was cut (cap, dropped stream, a tool call): its text is a
 * fragment, so the bare-answer arm (the whole visible text is just `yes` / `no`) is closed — a
 * leading "No" may be the start of "No, this must be blocked" — and a "no" counts only with its
 * closing tag.
 *
 * Several answers: all `yes` ⇒ block (every reading blocks); otherwise `conflict`. Only exactly one
 * clean `no` — tagged, or bare in a complete reply — ever reads as allow.
 */
export function readClassifierVerdict(text: string, options: { complete: boolean }): ClassifierVerdict {
  const visible = stripClassifierThinking(text);
  const answers = taggedAnswers(visible, options.complete);
  const [first] = answers;
  if (!first) {
    const bare = options.complete ? BARE_ANSWER.exec(visible.trim()) : null;
    if (bare?.[1]) return { kind: "verdict", block: bare[1].toLowerCase() === "yes", form: "bare" };
    return { kind: "parse_error", form: "missing" };
  }
  if (answers.length > 1 && !answers.every((answer) => answer.block)) return { kind: "parse_error", form: "conflict" };
  const reason = first.block ? reasonAfter(visible, first.end) : undefined;
  return { kind: "verdict", block: first.block, form: "tag", ...(reason ? { reason } : {}) };
}
