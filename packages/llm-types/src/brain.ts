import type { Context } from "./context";
import type { AssistantMessage, ToolCall } from "./messages";
import type { Model } from "./model";

/** Reasoning efforts, weakest first. `off` asks the wire to disable thinking where it can spell that. */
export const REASONING_LEVELS = ["off", "minimal", "low", "medium", "high"] as const;
/** Reasoning effort: one of {@link REASONING_LEVELS}. */
export type ReasoningLevel = (typeof REASONING_LEVELS)[number];

/** The per-call knobs of a model request. */
export interface BrainRequest {
  /** Output cap for this call. Default: the model's `maxTokens`. */
  maxTokens?: number;
  /** Default: the provider's default for the model. */
  reasoning?: ReasoningLevel;
  /** Aborting ends the call with `stopReason: "aborted"`. */
  signal?: AbortSignal;
  /** Whole-call deadline; when it passes the turn ends with `errorKind: "timeout"`. */
  timeoutMs?: number;
  /** No bytes for this long mid-stream ⇒ keep what arrived, `partialFinalized`. Default: brain-specific. */
  stallTimeoutMs?: number;
  /** Prompt-cache / session affinity key, passed to providers that take one. */
  cacheKey?: string;
  /** Extra HTTP headers for this call (merged over the model's). */
  headers?: Record<string, string>;
  /** Stop sequences. */
  stop?: string[];
}

/** Streamed events of one model call, in order: start, block events, then exactly one done/error. */
export type BrainEvent =
  | { type: "start"; partial: AssistantMessage }
  | { type: "text_start"; contentIndex: number }
  | { type: "text_delta"; contentIndex: number; delta: string }
  | { type: "text_end"; contentIndex: number; text: string }
  | { type: "thinking_start"; contentIndex: number }
  | { type: "thinking_delta"; contentIndex: number; delta: string }
  | { type: "thinking_end"; contentIndex: number; thinking: string }
  | { type: "toolcall_start"; contentIndex: number; id: string; name: string }
  | { type: "toolcall_delta"; contentIndex: number; delta: string }
  | { type: "toolcall_end"; contentIndex: number; toolCall: ToolCall }
  | { type: "done"; message: AssistantMessage }
  | { type: "error"; message: AssistantMessage };

/** What `Brain.stream` returns: iterate it for events, or await `result()` for the final turn. */
export interface BrainStream extends AsyncIterable<BrainEvent> {
  /** Resolves with the final message once the stream ends. Never rejects. */
  result(): Promise<AssistantMessage>;
}

/**
 * A brain's judgement of a model's route before any call: is the credential/URL pairing unusable
 * (an official endpoint with no API key, say), and why — a short stable word such as `missing_api_key`.
 */
export interface RouteJudgement {
  broken: boolean;
  cause?: string;
}

/**
 * A model provider adapter.
 *
 * Contract: `stream` must not throw and `result()` must not reject. Every failure — HTTP status,
 * dropped connection, stall, abort, timeout, malformed payload — is encoded in the final
 * `AssistantMessage` (`stopReason: "error" | "aborted"` with an `errorKind`), and every deliberate
 * cut (static cap with nothing produced, degenerate repetition) carries its `errorKind` too.
 * Credentials never appear in any message the brain produces.
 */
export interface Brain {
  /** The wire protocol this brain speaks; the runner picks the brain by `model.api`. */
  readonly api: string;
  stream(model: Model, context: Context, request?: BrainRequest): BrainStream;
  /**
   * Optional: true when the brain reads `context` only while a call runs (until its `result()`
   * settles) and neither keeps nor changes its arrays. A caller may then lend the calls of one
   * conversation a single messages array that it grows between them, instead of copying the
   * whole conversation for every call (the runner does). Omitted or false: every call is given
   * arrays of its own, as a brain that records or edits what it is sent needs.
   */
  readonly borrowsContext?: boolean;
  /**
   * Optional: judges `model`'s route without calling it. Auto mode asks this once per run for the
   * classifier's model and, when it is broken, classifies on the run's main model instead. Must not
   * throw or do I/O; a brain that cannot tell omits it (or answers `{ broken: false }`).
   */
  judgeRoute?(model: Model): RouteJudgement;
}
