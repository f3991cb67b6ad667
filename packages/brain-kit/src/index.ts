export {
  TurnBuilder,
  type BrainEventSink,
  type FeedResult,
  type TurnBuilderOptions,
  type UsageCounts,
} from "./turn-builder";
export { isBuiltTurn } from "./built-turn";
export { vouchMessages } from "./vouched-messages";
export { sdkTurnOptions, startTurn, type HttpBrainOptions, type StartTurnOptions } from "./start-turn";
export { DEFAULT_STALL_TIMEOUT_MS, type ItemSink } from "./call-control";
export { runStreamedCall, type StreamedCall } from "./streamed-call";
export { createNodeFetch, readText, type NodeFetch, type NodeRequestInit, type NodeResponse } from "./node-fetch";
export { readSse, type ByteDecoder, type SseEventHandler } from "./sse-reader";
export { DirectRoutes, type DirectResponse, type RequestBuilder, type SdkErrors } from "./direct-route";
export { SseSplitter, type SseEvent, type SseSplitterOptions } from "./sse-splitter";
export {
  isContextOverflowText,
  isTransportError,
  kindForStatus,
  providerFailure,
  retryAfterFrom,
  type ClassifiedError,
} from "./provider-errors";
export {
  contextSize,
  estimateContextTokens,
  estimateOutputTokens,
  estimateTokens,
  tokensOfSize,
  type ContextSize,
} from "./estimate";
export { redactSecrets } from "./redact";
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
