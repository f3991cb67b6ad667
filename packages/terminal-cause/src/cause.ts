import type { AssistantMessage, ErrorKind } from "@x/llm-types";

/**
 * Why a turn ended is read from `errorKind`, never from `errorMessage` prose: a brain stamps the
 * kind on every deliberate cut and every failure, and these predicates are the one place that
 * knows how to read it. There is no sentinel-string fallback — a turn that carries only prose is
 * not recognised, by design.
 */

/** The subset of an assistant turn that carries a terminal cause. Accepts a full {@link AssistantMessage}. */
export type TerminalCauseCarrier = Pick<AssistantMessage, "errorKind">;

/**
 * True when the brain's repetition guard cut this turn (the model looped; the salvageable prefix
 * is kept). Does not also require `stopReason === "error"`: callers that need the terminal shape
 * check it themselves, and recovery paths are handed an already-errored turn.
 */
export function isDegenerateCutMessage(message: TerminalCauseCarrier): boolean {
  return message.errorKind === "degenerate_repetition";
}

/** True when the turn stopped at the static output cap with nothing usable produced. */
export function isLengthEmpty(message: TerminalCauseCarrier): boolean {
  return message.errorKind === "length_empty";
}

/** True when the prompt did not fit the model's context window. */
export function isContextOverflow(message: TerminalCauseCarrier): boolean {
  return message.errorKind === "context_overflow";
}

/**
 * A turn that carries a partial tool call: any tool call whose arguments were cut short
 * (`argumentsError: "truncated"`), or a `length` stop with a tool call in it. Such a call must not
 * be executed. Whether more room helps is {@link isStreamCut}'s question: a truncated call in a
 * dropped stream is a network failure, not a cap cut.
 */
export function isPartialToolCallCut(message: Pick<AssistantMessage, "stopReason" | "content">): boolean {
  let hasToolCall = false;
  for (const block of message.content) {
    if (block.type !== "toolCall") continue;
    if (block.argumentsError === "truncated") return true;
    hasToolCall = true;
  }
  return message.stopReason === "length" && hasToolCall;
}

/** Kinds worth retrying the same request for (after `retryAfterMs` when the provider sent one). */
export const RETRYABLE_ERROR_KINDS = [
  "rate_limited",
  "overloaded",
  "timeout",
  "network",
  "provider",
] as const satisfies readonly ErrorKind[];
export type RetryableErrorKind = (typeof RETRYABLE_ERROR_KINDS)[number];

const retryable: ReadonlySet<ErrorKind> = new Set(RETRYABLE_ERROR_KINDS);

/** True for the transient kinds: rate limit, overload, timeout, network, provider 5xx. */
export function isRetryableKind(kind: ErrorKind | undefined): kind is RetryableErrorKind {
  return kind !== undefined && retryable.has(kind);
}

/**
 * True when the provider never finished the turn: the stream dropped, stalled or ran past its
 * deadline and the brain kept what arrived (`partialFinalized`). Such a turn is never a final
 * answer and none of its tool calls runs — complete ones included, since the provider did not say
 * the turn was over. The same request may succeed; the cut is read like a `network`/`timeout`
 * failure. An abort is not a stream cut.
 */
export function isStreamCut(message: Pick<AssistantMessage, "partialFinalized" | "stopReason" | "errorKind">): boolean {
  return message.partialFinalized === true && !isAborted(message);
}

/**
 * True when the same request may succeed: a turn that failed for a transient reason, or a stream
 * cut ({@link isStreamCut}) — a kept partial is retried, never taken as the answer.
 */
export function isRetryable(message: Pick<AssistantMessage, "errorKind" | "stopReason" | "partialFinalized">): boolean {
  if (message.stopReason === "error" && isRetryableKind(message.errorKind)) return true;
  return isStreamCut(message);
}

/** True when the caller's signal aborted the turn. */
export function isAborted(message: Pick<AssistantMessage, "errorKind" | "stopReason">): boolean {
  return message.stopReason === "aborted" || message.errorKind === "aborted";
}
