import { z } from "zod/v4";

const count = z.int().nonnegative();

/**
 * Where a run's compaction stands; part of the run state, so a parked run resumes with the same
 * view of its history the model had. `cut` indexes the run's full message list (history, then the
 * run's own messages): the model sees the summary, then everything from `cut` on.
 */
export const CompactionStateSchema = z.strictObject({
  cut: count,
  summary: z.string(),
  /** Full-list length at each compaction, in order: the calls after one start a new cached prefix. */
  at: z.array(count),
  tokens: count,
  costMicroUsd: count,
  /** Turn count when a context overflow was last answered by compacting: once per turn, then the run ends. */
  overflowTurn: count.optional(),
  /**
   * A tighter cap, in characters, on every tool result the model sees from `cut` on: set when the
   * latest turns alone did not fit the window (many large results in one turn), so the turn is cut
   * instead of the run ending `context_overflow`. Recomputed at each compaction.
   */
  tailResultMaxChars: count.optional(),
});
export type CompactionState = z.infer<typeof CompactionStateSchema>;

/**
 * Where the model's view of a session stands after a run: everything before `cut` (an index into
 * the next run's history, `[...history, ...result.messages]`) is folded into `summary`. Handed to
 * the next run of the session, it starts from the same view, so its first request extends the last
 * run's last one — a provider's prompt cache still hits — and nothing is summarised twice.
 */
export const CompactedHistorySchema = z.strictObject({ cut: count, summary: z.string().min(1) });
export type CompactedHistory = z.infer<typeof CompactedHistorySchema>;

export function emptyCompactionState(): CompactionState {
  return { cut: 0, summary: "", at: [], tokens: 0, costMicroUsd: 0 };
}
