import type { z } from "zod/v4";
import { StrategyStoreError } from "./errors";
import { RecordIdSchema, ScopeSchema, StrategyInputSchema } from "./record";
import type { ParsedStrategyInput } from "./record";
import { ListQuerySchema, SearchQuerySchema } from "./store";

/**
 * Parses with zod and turns a failure into `invalid_input`. The message names fields and rules,
 * never the offending values, so nothing a caller passed (or stored) is echoed back.
 */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const fields = result.error.issues.map((issue) => (issue.path.length ? issue.path.join(".") : what));
  const detail = result.error.issues
    .map((issue) => `${issue.path.length ? issue.path.join(".") : what}: ${issue.message}`)
    .join("; ");
  throw new StrategyStoreError("invalid_input", `invalid ${what}: ${detail}`, { fields });
}

export const parseInput = (value: unknown): ParsedStrategyInput => parseOrThrow(StrategyInputSchema, value, "strategy");
export const parseSearch = (value: unknown) => parseOrThrow(SearchQuerySchema, value, "search");
export const parseList = (value: unknown) => parseOrThrow(ListQuerySchema, value, "list");
export const parseScope = (value: unknown): string => parseOrThrow(ScopeSchema, value, "scope");
export const parseId = (value: unknown): string => parseOrThrow(RecordIdSchema, value, "id");

export function parseSuccess(value: unknown): boolean {
  if (typeof value !== "boolean") {
    throw new StrategyStoreError("invalid_input", "invalid success: must be a boolean", { fields: ["success"] });
  }
  return value;
}
