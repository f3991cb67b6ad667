import { z } from "zod/v4";
import { LIMITS } from "./limits";

// Lone surrogates cannot be encoded as UTF-8 (Postgres rejects them), and NUL cannot live in a
// Postgres text value; both are refused everywhere so every backend accepts the same inputs.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** A string every backend can store and compare: bounded, no NUL, well-formed Unicode. */
export function text(max: number) {
  return z
    .string()
    .max(max)
    .refine((s) => !s.includes("\u0000"), { message: "must not contain NUL characters" })
    .refine((s) => !LONE_SURROGATE.test(s), { message: "must be well-formed Unicode" });
}

function requiredText(max: number) {
  return text(max).refine((s) => s.trim().length > 0, { message: "must not be empty" });
}

/** Optional prose: null, undefined and blank all mean "absent". */
function optionalText(max: number) {
  return text(max)
    .nullish()
    .transform((s) => (s === null || s === undefined || s.trim() === "" ? undefined : s));
}

export const ScopeSchema = requiredText(LIMITS.scope);
export const RecordIdSchema = requiredText(128);
export const ConfidenceSchema = z.number().int().min(0).max(3);
export const EmbeddingSchema = z
  .array(z.number().refine(Number.isFinite, { message: "must be finite" }))
  .min(1)
  .max(LIMITS.embeddingDims);
const TagsSchema = z.array(requiredText(LIMITS.tag)).max(LIMITS.tags);

/** What a caller hands to `put`. */
export const StrategyInputSchema = z.object({
  scope: ScopeSchema,
  /** The class of problem this strategy applies to, in words a future task description would share. */
  problem: requiredText(LIMITS.text),
  /** The general approach for this class of problem. */
  strategy: requiredText(LIMITS.text),
  correction: optionalText(LIMITS.text),
  nextStep: optionalText(LIMITS.text),
  /** 0 = low .. 3 = high, as the teacher reported it. */
  confidence: ConfidenceSchema,
  /** Who produced it: "teacher", "user", an import name, a model id. */
  source: requiredText(LIMITS.source),
  tags: TagsSchema.optional(),
  /** Precomputed embedding of `problem`; when absent and the store has `embed`, the store computes it. */
  embedding: EmbeddingSchema.optional(),
});

export type StrategyInput = z.input<typeof StrategyInputSchema>;
export type ParsedStrategyInput = z.output<typeof StrategyInputSchema>;

export const StrategyRecordSchema = z.object({
  id: z.string(),
  scope: z.string(),
  problem: z.string(),
  strategy: z.string(),
  correction: z.string().optional(),
  nextStep: z.string().optional(),
  confidence: ConfidenceSchema,
  source: z.string(),
  /** ISO 8601, UTC. */
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Outcomes recorded with `recordOutcome`. */
  uses: z.number().int().min(0),
  successes: z.number().int().min(0),
  tags: z.array(z.string()),
  embedding: z.array(z.number()).optional(),
});

export type StrategyRecord = z.output<typeof StrategyRecordSchema>;

export interface StrategyHit {
  record: StrategyRecord;
  /** Higher is better; about 1 for a close, well-performing match, toward 0 for a weak one. */
  score: number;
}
