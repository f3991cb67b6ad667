import { z } from "zod/v4";
import { LIMITS } from "./limits";
import { ScopeSchema, text } from "./record";
import type { StrategyHit, StrategyInput, StrategyRecord } from "./record";

export const SearchQuerySchema = z.object({
  scope: ScopeSchema,
  query: text(LIMITS.text),
  k: z.number().int().min(1).max(LIMITS.k).default(3),
  /** Drop hits scoring below this (see `StrategyHit.score`). */
  minScore: z.number().min(0).optional(),
});
export type SearchQuery = z.input<typeof SearchQuerySchema>;

export const ListQuerySchema = z.object({
  scope: ScopeSchema,
  limit: z.number().int().min(1).max(LIMITS.listLimit).optional(),
  /** `nextCursor` from the previous page. */
  cursor: z.string().max(200).optional(),
});
export type ListQuery = z.input<typeof ListQuerySchema>;

export interface StrategyPage {
  records: StrategyRecord[];
  /** Present when more records follow; pass it back as `cursor`. */
  nextCursor?: string;
}

/** Host-supplied text embedder; one vector per input text, all of one dimension. */
export type EmbedFn = (texts: string[]) => Promise<number[][]>;

export interface StrategyStoreOptions {
  /** Turns on hybrid search (lexical + vector, fused by reciprocal rank). */
  embed?: EmbedFn;
}

/**
 * Scoped memory of what worked. Every call names its scope, and nothing — record, count, score
 * input or error text — crosses from one scope to another.
 */
export interface StrategyStore {
  /** True when `search` fuses a vector ranking in (an `embed` was given and the backend can use it). */
  readonly vectorSearch: boolean;
  /** Insert, or update the record with the same scope and normalised strategy text. */
  put(input: StrategyInput): Promise<StrategyRecord>;
  /**
   * `put` for many inputs (at most `LIMITS.batch`) in one transaction: all are validated first
   * and either all are written or none; a later input with the same strategy merges into the earlier one.
   */
  putMany(inputs: readonly StrategyInput[]): Promise<StrategyRecord[]>;
  /** Best `k` records for `query` in `scope`, most relevant (and most successful) first. */
  search(query: SearchQuery): Promise<StrategyHit[]>;
  /** Count one use and, when `success`, one success; throws `not_found` outside the record's scope. */
  recordOutcome(scope: string, id: string, success: boolean): Promise<StrategyRecord>;
  get(scope: string, id: string): Promise<StrategyRecord | undefined>;
  /** Records in id order, a page at a time (keyset pagination). */
  list(query: ListQuery): Promise<StrategyPage>;
  /** True when a record was deleted. */
  delete(scope: string, id: string): Promise<boolean>;
  /** Idempotent; later calls fail with `closed`. */
  close(): Promise<void>;
}
