import { z } from "zod";
import { jsonObjectCandidates } from "./json-block";

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

/**
 * Reads the teacher's reply. The JSON object may be the whole reply, fenced, or embedded in prose.
 * A reply with no valid advice object is not thrown away: its text becomes a low-confidence
 * (0) correction, with `raw` set, so the student still hears it but it is never stored as a strategy.
 */
export function parseTeacherAdvice(text: string): TeacherAdvice {
  for (const candidate of jsonObjectCandidates(text)) {
    const parsed = TeacherAdviceSchema.safeParse(candidate);
    if (!parsed.success) continue;
    const advice: TeacherAdvice = { takeover: parsed.data.takeover, confidence: parsed.data.confidence };
    if (parsed.data.strategy !== undefined) advice.strategy = parsed.data.strategy;
    if (parsed.data.correction !== undefined) advice.correction = parsed.data.correction;
    if (parsed.data.nextStep !== undefined) advice.nextStep = parsed.data.nextStep;
    return advice;
  }
  const trimmed = text.trim();
  const fallback: TeacherAdvice = { takeover: false, confidence: 0, raw: text };
  if (trimmed !== "") fallback.correction = trimmed;
  return fallback;
}

/** The advice as the user message appended to the student's session. */
export function formatAdviceForStudent(advice: TeacherAdvice): string {
  const lines = ["A more experienced reviewer looked at your attempt. Use this guidance and continue the task:"];
  if (advice.correction !== undefined) lines.push(`- What went wrong: ${advice.correction}`);
  if (advice.strategy !== undefined) lines.push(`- Approach: ${advice.strategy}`);
  if (advice.nextStep !== undefined) lines.push(`- Do next: ${advice.nextStep}`);
  if (advice.raw !== undefined && advice.correction === undefined) lines.push("- (the reviewer gave no usable guidance)");
  return lines.join("\n");
}
