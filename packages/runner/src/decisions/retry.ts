import { issuesLine } from "@x/llm-types";
import type { AssistantMessage } from "@x/llm-types";
import { z } from "zod/v4";
import { RunnerConfigError } from "../vocabulary/config-error";
import { isAborted, isDegenerateCutMessage, isLengthEmpty, isRetryable, isStreamCut } from "@x/terminal-cause";
import type { RetryOptions } from "../vocabulary/types";
import type { ResolvedRetry } from "../state/run-parts";

/**
 * What to do about a failed model call:
 * - `retry`: same model, after a backoff (until retries run out, then `fallback`);
 * - `fallback`: the next model of the chain — the failure will not go away by asking again;
 * - `aborted`: the caller stopped the run.
 */
export type FailureAction = "retry" | "fallback" | "aborted";

export function failureAction(
  turn: Pick<AssistantMessage, "stopReason" | "errorKind" | "partialFinalized">,
): FailureAction {
  if (isAborted(turn)) return "aborted";
  if (isRetryable(turn)) return "retry";
  return "fallback";
}

/**
 * True when the call did not produce a turn the loop may use: a provider failure, an abort, or a
 * stream the provider never finished (a kept partial is retried like `network`/`timeout`, never
 * taken as the answer). Deliberate cuts the recovery lanes own (repetition, empty at the cap) are
 * not failed calls.
 */
export function isFailedCall(turn: Pick<AssistantMessage, "stopReason" | "errorKind" | "partialFinalized">): boolean {
  if (isAborted(turn) || isStreamCut(turn)) return true;
  if (turn.stopReason !== "error") return false;
  return !isDegenerateCutMessage(turn) && !isLengthEmpty(turn);
}

const count = z.number().int().nonnegative();
const RetryOptionsSchema = z.strictObject({
  maxRetries: count.optional(),
  baseDelayMs: count.optional(),
  maxDelayMs: count.optional(),
  random: z.custom<() => number>((value) => typeof value === "function", { message: "expected a function" }).optional(),
});

/**
 * Fills the defaults in. A value that cannot work (a `NaN` or negative `maxRetries` would retry
 * forever) throws `RunnerConfigError` when the runner is made.
 */
export function resolveRetry(options: RetryOptions | undefined): ResolvedRetry {
  const checked = RetryOptionsSchema.safeParse(options ?? {});
  if (!checked.success) {
    throw new RunnerConfigError("config.retry_invalid", `retry options: ${issuesLine(checked.error)}`);
  }
  return {
    maxRetries: options?.maxRetries ?? 2,
    baseDelayMs: options?.baseDelayMs ?? 500,
    maxDelayMs: options?.maxDelayMs ?? 30_000,
    random: options?.random ?? Math.random,
  };
}

/**
 * Delay before retry number `attempt` (0-based): exponential with ±50% jitter, so many runs that
 * failed together do not come back together. A provider's retry-after wins over the curve (it
 * knows). When it asks for longer than `maxDelayMs` there is no retry (undefined): coming back
 * early would only be refused again, so the run moves on down the model chain instead.
 */
export function backoffMs(attempt: number, retry: ResolvedRetry, retryAfterMs?: number): number | undefined {
  if (retryAfterMs !== undefined) return retryAfterMs > retry.maxDelayMs ? undefined : Math.max(0, retryAfterMs);
  const curve = retry.baseDelayMs * 2 ** attempt;
  const jittered = curve * (0.5 + retry.random());
  return Math.round(Math.min(jittered, retry.maxDelayMs));
}
