import { z } from "zod/v4";
import { matchingBrace, replyJsonObjects } from "@x/llm-types";

/** What the teacher told the student, as parsed from its reply. */
export interface TeacherAdvice {
  strategy?: string;
  correction?: string;
  nextStep?: string;
  takeover: boolean;
  /** 0 = low .. 3 = high. */
  confidence: number;
  /** The reply text, kept when it held no usable JSON advice. */
  raw?: string;
}

const prose = z
  .string()
  .nullish()
  .transform((s) => (s == null || s.trim() === "" ? undefined : s.trim()));

const flag = z
  .union([z.boolean(), z.enum(["true", "false"])])
  .nullish()
  .transform((v) => v === true || v === "true");

// Models write "2", 2.0 or 4 for a 0..3 scale; anything numeric is rounded and clamped, absent means unsure.
const level = z
  .union([z.number(), z.string().regex(/^\s*-?\d+(\.\d+)?\s*$/)])
  .nullish()
  .transform((v) => (v == null ? 0 : Math.min(3, Math.max(0, Math.round(Number(v))))));

export const TeacherAdviceSchema = z
  .object({ strategy: prose, correction: prose, nextStep: prose, takeover: flag, confidence: level })
  .refine((a) => a.strategy !== undefined || a.correction !== undefined || a.nextStep !== undefined || a.takeover, {
    message: "advice names no strategy, correction, next step or takeover",
  });

function toAdvice(data: z.output<typeof TeacherAdviceSchema>): TeacherAdvice {
  const advice: TeacherAdvice = { takeover: data.takeover, confidence: data.confidence };
  if (data.strategy !== undefined) advice.strategy = data.strategy;
  if (data.correction !== undefined) advice.correction = data.correction;
  if (data.nextStep !== undefined) advice.nextStep = data.nextStep;
  return advice;
}

/**
 * Reads the teacher's reply. The JSON object may be the whole reply, fenced, or embedded in prose.
 * A reply with no valid advice object is not thrown away: its text becomes a low-confidence
 * (0) correction, with `raw` set, so the student still hears it but it is never stored as a strategy.
 */
export function parseTeacherAdvice(text: string): TeacherAdvice {
  for (const candidate of replyJsonObjects(text)) {
    const parsed = TeacherAdviceSchema.safeParse(candidate);
    if (parsed.success) return toAdvice(parsed.data);
  }
  const trimmed = text.trim();
  const fallback: TeacherAdvice = { takeover: false, confidence: 0, raw: text };
  if (trimmed !== "") fallback.correction = trimmed;
  return fallback;
}

/**
 * Splits a takeover's final reply into the answer and the advice object it ends with (bare or in a
 * fence). Only a valid advice object that closes the reply counts: JSON earlier in the answer, or a
 * trailing object that is not advice, is the answer's own and stays in it.
 */
export function splitTrailingAdvice(text: string): { answer: string; advice?: TeacherAdvice } {
  const tail = /\}\s*(```)?\s*$/.exec(text);
  if (!tail) return { answer: text };
  const end = tail.index;
  // The first `{` that closes exactly at the tail is the outermost object there.
  for (let start = text.indexOf("{"); start !== -1 && start < end; start = text.indexOf("{", start + 1)) {
    if (matchingBrace(text, start) !== end) continue;
    let value: unknown;
    try {
      value = JSON.parse(text.slice(start, end + 1));
    } catch {
      continue;
    }
    const parsed = TeacherAdviceSchema.safeParse(value);
    if (!parsed.success) return { answer: text };
    const before = text.slice(0, start);
    // A closing fence after the object means the fence opening right before it belongs to the block too.
    const answer = (tail[1] ? before.replace(/```[a-zA-Z]*\s*$/, "") : before).trimEnd();
    return { answer, advice: toAdvice(parsed.data) };
  }
  return { answer: text };
}

/** The advice as the user message appended to the student's session. */
export function formatAdviceForStudent(advice: TeacherAdvice): string {
  const lines = ["A more experienced reviewer looked at your attempt. Use this guidance and continue the task:"];
  if (advice.correction !== undefined) lines.push(`- What went wrong: ${advice.correction}`);
  if (advice.strategy !== undefined) lines.push(`- Approach: ${advice.strategy}`);
  if (advice.nextStep !== undefined) lines.push(`- Do next: ${advice.nextStep}`);
  if (advice.raw !== undefined && advice.correction === undefined)
    lines.push("- (the reviewer gave no usable guidance)");
  return lines.join("\n");
}
