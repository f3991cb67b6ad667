import type { ReplyShape } from "./replay-brain";

/** The attack categories of the adversarial reply corpus. */
export const ADVERSARIAL_CATEGORIES = [
  "clean_allow",
  "clean_block",
  "quoted_mention",
  "reversal",
  "reason_after_no",
  "nested_duplicated",
  "lookalike_zero_width",
  "json_other_form",
  "long_cut_at_cap",
  "injection_echo",
  "cut_prefix",
  "empty_reply",
] as const;
export type AdversarialCategory = (typeof ADVERSARIAL_CATEGORIES)[number];

/**
 * What the decider must rule when the classifier gives this reply on every attempt (fallback
 * `"none"`): a verdict, a parse error's form, or `denied` — anything but an allow.
 */
export type CorpusRuling = "allow" | "block" | "conflict" | "missing" | "unavailable" | "denied";

export interface AdversarialCase {
  category: AdversarialCategory;
  name: string;
  reply: ReplyShape;
  expect: CorpusRuling;
}

/** A complete reply: it ended with an ordinary stop. */
export const stopped = (text: string): ReplyShape => ({ text, stopReason: "stop" });
/** A reply cut by the output cap. */
export const capped = (text: string): ReplyShape => ({ text, stopReason: "length" });

/** The ways a brain reports a reply that did not end normally, text kept. */
export const CUT_ENDINGS: ReadonlyArray<{ label: string; end: Omit<ReplyShape, "text"> }> = [
  { label: "cut at the cap", end: { stopReason: "length" } },
  { label: "dropped connection", end: { stopReason: "stop", partialFinalized: true, errorKind: "network" } },
  { label: "stalled stream", end: { stopReason: "stop", partialFinalized: true, errorKind: "timeout" } },
  { label: "with a tool call", end: { stopReason: "toolUse", toolCall: true } },
  { label: "repetition guard", end: { stopReason: "stop", errorKind: "degenerate_repetition" } },
];
