import { z } from "zod/v4";

/**
 * A ruling auto mode made on a call, kept for the rest of the run (and in its parks): `key` is the
 * digest of the tool, its canonical arguments and the user's words; the rest is who ruled and why.
 */
export const AutoModeRulingSchema = z.strictObject({
  key: z.string().regex(/^[0-9a-f]{64}$/),
  verdict: z.enum(["allow", "block"]),
  reason: z.string().optional(),
  source: z.enum(["rule", "classifier"]),
  model: z.string().optional(),
  ruleId: z.string().optional(),
  station: z.enum(["leg", "ancestor"]),
  ancestorRunId: z.string().optional(),
  attempt: z.number().int().positive().optional(),
});
export type AutoModeRuling = z.infer<typeof AutoModeRulingSchema>;
