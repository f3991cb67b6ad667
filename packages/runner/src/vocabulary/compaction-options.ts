import { issuesLine } from "@x/llm-types";
import type { Message, Usage } from "@x/llm-types";
import { z } from "zod/v4";
import { RunnerConfigError } from "./config-error";

/** What a compactor is asked to fold: the turns leaving the model's view, and what was folded before. */
export interface CompactionRequest {
  /**
   * The user's request for this run, verbatim: the user's words of the objective only (recalled
   * strategies or teacher guidance ahead of them are in `messages`, attributed, never here).
   */
  objective: string;
  /** The summary the last compaction wrote, when there was one. */
  previousSummary?: string;
  /** The turns being folded now, oldest first; tool calls and their results together. */
  messages: readonly Message[];
  signal: AbortSignal;
}

/** What a compactor returns: the summary text, and what writing it cost (counted into the run). */
export interface CompactionSummary {
  summary: string;
  usage?: Usage;
}

/** A host's own compactor; the default asks the `summarize` role's model. */
export type Compactor = (request: CompactionRequest) => Promise<CompactionSummary>;

/** How the runner keeps a long run inside its model's context window. */
export interface CompactionOptions {
  /** Share of the usable window (context window minus the output cap) past which the runner compacts. Default 0.8. */
  threshold?: number;
  /** Share of the usable window the kept latest turns may fill after a compaction. Default 0.3. */
  keepRecent?: number;
  /** Output cap of the summary call. Default 2048 tokens. */
  summaryMaxTokens?: number;
  /** Writes the summary instead of the `summarize` role's model. */
  compactor?: Compactor;
  /**
   * Characters of one tool result the model sees; longer ones are cut head + tail. Default 40 000,
   * and never more than a quarter of the run's usable window (4 characters a token).
   */
  toolResultMaxChars?: number;
  /** Per tool name, overriding `toolResultMaxChars`. */
  toolResultMaxCharsByTool?: Readonly<Record<string, number>>;
}

export interface ResolvedCompaction {
  threshold: number;
  keepRecent: number;
  summaryMaxTokens: number;
  compactor?: Compactor;
  toolResultMaxChars: number;
  toolResultMaxCharsByTool: Readonly<Record<string, number>>;
}

const share = z.number().gt(0).max(1);
const chars = z.int().min(200);
const CompactionOptionsSchema = z.strictObject({
  threshold: share.optional(),
  keepRecent: share.optional(),
  summaryMaxTokens: z.int().min(64).optional(),
  compactor: z.custom<Compactor>((value) => typeof value === "function", { message: "expected a function" }).optional(),
  toolResultMaxChars: chars.optional(),
  toolResultMaxCharsByTool: z.record(z.string(), chars).optional(),
});

/**
 * `false` turns compaction (and the tool-result cap) off; anything else is checked when the runner
 * is made, so a bad knob is a `RunnerConfigError` rather than a run that overflows.
 */
export function resolveCompaction(options: CompactionOptions | false | undefined): ResolvedCompaction | undefined {
  if (options === false) return undefined;
  const checked = CompactionOptionsSchema.safeParse(options ?? {});
  if (!checked.success)
    throw new RunnerConfigError("config.compaction_invalid", `compaction options: ${issuesLine(checked.error)}`);
  const o = checked.data;
  const threshold = o.threshold ?? 0.8;
  const keepRecent = o.keepRecent ?? 0.3;
  if (keepRecent >= threshold)
    throw new RunnerConfigError(
      "config.compaction_invalid",
      `compaction options: keepRecent (${keepRecent}) must be ` +
        `below threshold (${threshold}), or every turn would compact`,
    );
  return {
    threshold,
    keepRecent,
    summaryMaxTokens: o.summaryMaxTokens ?? 2048,
    ...(options && options.compactor ? { compactor: options.compactor } : {}),
    toolResultMaxChars: o.toolResultMaxChars ?? 40_000,
    toolResultMaxCharsByTool: o.toolResultMaxCharsByTool ?? {},
  };
}
