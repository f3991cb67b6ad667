import { z } from "zod/v4";
import { StrategyStoreError } from "./errors";
import { StrategyRecordSchema, type StrategyRecord } from "./record";
import type { RankedFields } from "./ranking";

const count = z.coerce.number().pipe(z.number().int().min(0));
const timestamp = z.union([z.date(), z.string()]).transform((value, ctx) => {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) {
    ctx.addIssue({ code: "custom", message: "not a timestamp" });
    return z.NEVER;
  }
  return date.toISOString();
});
const tags = z.union([z.array(z.string()), z.string()]).transform((value, ctx) => {
  if (Array.isArray(value)) return value;
  try {
    return z.array(z.string()).parse(JSON.parse(value));
  } catch {
    ctx.addIssue({ code: "custom", message: "not a JSON array of strings" });
    return z.NEVER;
  }
});

/**
 * A strategy as SQL backends store it (snake_case columns), read back through one schema: a
 * database is outside data too. Drivers differ in value types (pg returns numerics as strings and
 * timestamps as Dates; SQLite keeps tags as JSON text), so values are coerced, then the result must
 * be a valid {@link StrategyRecord}. A backend decodes its own binary forms (an embedding blob) first.
 */
const StoredRowSchema = z
  .object({
    id: z.string(),
    scope: z.string(),
    problem: z.string(),
    strategy: z.string(),
    correction: z.string().nullable(),
    next_step: z.string().nullable(),
    confidence: z.coerce.number(),
    source: z.string(),
    tags,
    embedding: z.array(z.coerce.number()).nullable(),
    created_at: timestamp,
    updated_at: timestamp,
    uses: count,
    successes: count,
  })
  .transform((row) => ({
    id: row.id,
    scope: row.scope,
    problem: row.problem,
    strategy: row.strategy,
    ...(row.correction === null ? {} : { correction: row.correction }),
    ...(row.next_step === null ? {} : { nextStep: row.next_step }),
    confidence: row.confidence,
    source: row.source,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    uses: row.uses,
    successes: row.successes,
    tags: row.tags,
    ...(row.embedding === null ? {} : { embedding: row.embedding }),
  }))
  .pipe(StrategyRecordSchema);

/**
 * Reads one stored row into a record; a row that does not fit is a typed `backend` error naming
 * fields, never values.
 */
export function recordFromRow(row: unknown): StrategyRecord {
  const parsed = StoredRowSchema.safeParse(row);
  if (parsed.success) return parsed.data;
  return malformedRow(parsed.error);
}

const RankedRowSchema = z
  .object({ id: z.string(), confidence: z.coerce.number(), updated_at: timestamp, uses: count, successes: count })
  .transform((row) => ({
    id: row.id,
    confidence: row.confidence,
    updatedAt: row.updated_at,
    uses: row.uses,
    successes: row.successes,
  }));

/**
 * Reads only what ranking needs of a stored row, so a search validates a whole row (with
 * {@link recordFromRow}) only for the hits it returns, not for every candidate of its pool.
 */
export function rankedFieldsFromRow(row: unknown): RankedFields {
  const canonical = canonicalRankedFields(row);
  if (canonical) return canonical;
  const parsed = RankedRowSchema.safeParse(row);
  if (parsed.success) return parsed.data;
  return malformedRow(parsed.error);
}

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * The fields of a row that already holds what {@link RankedRowSchema} would give (a driver that
 * returns numbers as numbers, and the timestamp as the ISO text the store wrote), without running
 * the schema: a search reads dozens of candidates, and parsing them was most of what it allocated.
 * Anything else is left to the schema, so the result is the same either way.
 */
function canonicalRankedFields(row: unknown): RankedFields | undefined {
  if (typeof row !== "object" || row === null) return undefined;
  const { id, confidence, updated_at: updatedAt, uses, successes } = row as Record<string, unknown>;
  if (typeof id !== "string" || typeof confidence !== "number" || !Number.isFinite(confidence)) return undefined;
  if (!isCount(uses) || !isCount(successes) || typeof updatedAt !== "string" || !ISO_TIMESTAMP.test(updatedAt)) {
    return undefined;
  }
  // A well-formed text can still name no such day (February 30th): only what reads back unchanged passes.
  const time = Date.parse(updatedAt);
  if (Number.isNaN(time) || new Date(time).toISOString() !== updatedAt) return undefined;
  return { id, confidence, updatedAt, uses, successes };
}

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}

function malformedRow(error: z.ZodError): never {
  const fields = error.issues.map((issue) => issue.path.join(".") || "row");
  throw new StrategyStoreError("backend", `a stored strategy row is malformed: ${fields.join(", ")}`, { fields });
}
