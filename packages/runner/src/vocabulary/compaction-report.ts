import type { CompactedHistory } from "./compaction-state";

/** What compaction did in a run, as the result reports it. */
export interface CompactionReport {
  compactions: number;
  /** Tokens and integer micro-dollars the summaries cost (already counted in the run's stats). */
  tokens: number;
  costMicroUsd: number;
  /** Input tokens of the run's answered model calls. */
  inputTokens: number;
  /** Of those, the tokens that were the previous request unchanged: what a prompt cache can serve. */
  cacheStableInputTokens: number;
  /** `cacheStableInputTokens / inputTokens` (0 with no input). */
  cacheStableShare: number;
  /**
   * The model's view of the session as this run left it (absent until a compaction folded part of
   * it): pass it as the next run's `compactedHistory`, with `[...history, ...result.messages]`.
   */
  view?: CompactedHistory;
}
