export {
  TurnBuilder,
  type BrainEventSink,
  type FeedResult,
  type TurnBuilderOptions,
  type UsageCounts,
} from "./turn-builder";
export { isBuiltTurn } from "./built-turn";
export { startTurn, type HttpBrainOptions, type StartTurnOptions } from "./start-turn";
export {
  CallControl,
  DEFAULT_STALL_TIMEOUT_MS,
  pumpCall,
  settleCall,
  type CallOutcome,
  type CutReason,
} from "./call-control";
export {
  describeError,
  isContextOverflowText,
  isTransportError,
  kindForStatus,
  providerFailure,
  retryAfterFrom,
  type ClassifiedError,
} from "./provider-errors";
export { estimateContextTokens, estimateOutputTokens, estimateTokens } from "./estimate";
export { credentialsIn, headerLines, redactSecrets } from "./redact";
export {
  createRepetitionGuard,
  DEFAULT_RECURRENCE_OPTIONS,
  DEFAULT_REPETITION_GUARD_OPTIONS,
  repetitionGuardMaker,
  type GuardVerdict,
  type RecurrenceOptions,
  type RepetitionGuard,
  type RepetitionGuardOptions,
} from "./repetition-guard";
