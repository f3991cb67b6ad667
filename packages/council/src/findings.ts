import { z } from "zod/v4";

/** How bad a finding is, worst first. */
export const SEVERITIES = ["critical", "high", "medium", "low"] as const;
export type Severity = (typeof SEVERITIES)[number];

/** Where a finding is: a file and a line (or a range of lines). */
export const LocationSchema = z.strictObject({
  file: z.string().min(1),
  line: z.number().int().positive(),
  endLine: z.number().int().positive().optional(),
});
export type Location = z.infer<typeof LocationSchema>;

/** One problem a reviewer reports. */
export const FindingSchema = z.strictObject({
  location: LocationSchema,
  /** What is wrong, in one sentence. */
  claim: z.string().min(1),
  /** Why the reviewer believes it: the code, an input that breaks it, a trace. */
  evidence: z.string(),
  severity: z.enum(SEVERITIES),
  /** The reviewer's own confidence, 0 to 1. */
  confidence: z.number().min(0).max(1),
});
export type Finding = z.infer<typeof FindingSchema>;

/** A reviewer's whole answer: what its final message must be, as JSON. */
export const ReviewSchema = z.strictObject({ findings: z.array(FindingSchema) });
export type Review = z.infer<typeof ReviewSchema>;

/** What a critic can say about a finding another reviewer made. */
export const CRITIQUE_VERDICTS = ["confirm", "dispute", "duplicate"] as const;
export type CritiqueVerdict = (typeof CRITIQUE_VERDICTS)[number];

export const CritiqueSchema = z.strictObject({
  verdicts: z.array(
    z.strictObject({
      /** The finding's id as it was shown (`F1`, `F2`, …). */
      id: z.string().min(1),
      verdict: z.enum(CRITIQUE_VERDICTS),
      /** For `duplicate`: the id of the finding it repeats. */
      duplicateOf: z.string().optional(),
      reason: z.string(),
    }),
  ),
});
export type Critique = z.infer<typeof CritiqueSchema>;
