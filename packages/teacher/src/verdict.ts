import { z } from "zod/v4";
import { replyJsonObjects } from "@x/llm-types";

/** One helper judgement: the verifier's `pass`, or the monitor's `stuck`. */
export interface Verdict {
  /** `undefined` when the reply held no readable verdict. */
  value: boolean | undefined;
  reason?: string;
}

const reasonField = z.string().nullish();

/** Reads a `{"<field>": bool, "reason": "..."}` reply; a bare yes/no word is accepted as a fallback. */
export function parseVerdict(text: string, field: "pass" | "stuck"): Verdict {
  const schema = z.object({ [field]: z.union([z.boolean(), z.enum(["true", "false"])]), reason: reasonField });
  for (const candidate of replyJsonObjects(text)) {
    const parsed = schema.safeParse(candidate);
    if (!parsed.success) continue;
    const raw = parsed.data[field] as boolean | "true" | "false";
    const verdict: Verdict = { value: raw === true || raw === "true" };
    const reason = parsed.data.reason as string | null | undefined;
    if (reason) verdict.reason = reason;
    return verdict;
  }
  // Small models sometimes answer with a single word despite the instruction.
  const word = text
    .trim()
    .toLowerCase()
    .match(/^(pass|fail|yes|no|true|false|stuck|progress)\b/)?.[1];
  if (word === undefined) return { value: undefined };
  const positive = field === "pass" ? ["pass", "yes", "true"] : ["stuck", "yes", "true"];
  return { value: positive.includes(word), reason: text.trim() };
}

/** Outcome of a verification round. */
export interface VoteResult {
  /** `undefined` when no sample gave a readable verdict. */
  pass: boolean | undefined;
  passes: number;
  fails: number;
  /** The reason of a sample on the winning side, for the escalation policy and the teacher. */
  reason?: string;
}

/**
 * Majority vote over verifier samples. Unreadable samples abstain. A tie is a fail: the vote exists
 * to decide whether to escalate, and an evenly split judge has not vouched for the output.
 */
export function majorityVote(samples: readonly Verdict[]): VoteResult {
  const passes = samples.filter((s) => s.value === true).length;
  const fails = samples.filter((s) => s.value === false).length;
  if (passes + fails === 0) return { pass: undefined, passes, fails };
  const pass = passes > fails;
  const result: VoteResult = { pass, passes, fails };
  const reason = samples.find((s) => s.value === pass && s.reason)?.reason;
  if (reason !== undefined) result.reason = reason;
  return result;
}
