import type { Message, Model, ToolCall, ToolResultMessage, ToolSpec } from "@x/llm-types";
import type { AutoModeDecider, AutoModeRule, AutoModeVerdict } from "@x/classifier-ladder";

// The shapes of what a run carries and the layers below fill in: the loop guard, the retry policy,
// the trace, auto mode's gate and the ancestors' frozen classifiers. Declared here, with the run's
// context, so the context names each part without importing the code that makes it.

/** What the loop guard says about the call it was just shown. */
export type LoopGuardVerdict = "ok" | "warn" | "stuck";

/** The loop guard's serialisable state, so a parked run keeps counting where it left off. */
export interface LoopGuardState {
  lastKey?: string;
  streak: number;
}

/** The identical-call loop guard (`createLoopGuard`). */
export interface LoopGuard {
  observe(call: Pick<ToolCall, "name" | "arguments">): LoopGuardVerdict;
  state(): LoopGuardState;
}

/** The runner's retry policy with its defaults filled in (`resolveRetry`). */
export interface ResolvedRetry {
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  random: () => number;
}

/** The run's view of the host tracer (`RunTracer`): span ids and parents. */
export interface RunTrace {
  start(name: string, data: Record<string, unknown>, parentSpanId?: string): string;
  end(spanId: string, name: string, data: Record<string, unknown>, parentSpanId?: string): void;
}

/**
 * An ancestor's classifier as it stood when a child started: the ancestor's seat, its own
 * conversation (so the intent is the ancestor's user's words, never the child's objective, which a
 * model wrote), and whether its approver was a live person.
 */
export interface AncestorFrame {
  runId: string;
  main: Model;
  transcript: readonly Message[];
  toolSpecs: readonly ToolSpec[];
  approverLive: boolean;
  /** The ancestor's own rules: its allow rules stand in for its classifier at its station. */
  rules?: readonly AutoModeRule[];
  /** Armed on the first call it judges. */
  decider?: AutoModeDecider;
}

/**
 * The denial limit's word on the next gated call, decided once: classify it, hand it to a person
 * (the live approver, or the park) as `kind`, or stop the run (the limit is reached and no person
 * can be asked).
 */
export type AutoModeRoute =
  { route: "classify" } | { route: "ask"; kind: "auto_unavailable" | "denial_limit" } | { route: "stop" };

/** The auto-mode seam: judges one call against the full history, counting its usage and the denial limit. */
export interface AutoModeGate {
  /** Before classifying, and after a block: the denial limit's word. */
  route(): AutoModeRoute;
  decide(call: ToolCall, signal: AbortSignal): Promise<AutoModeVerdict>;
  /**
   * Starts the run's classifier on a call of the turn the model is still streaming, once its
   * arguments are whole; `decide` for that call then takes this classification instead of asking
   * anew. `before`: the calls that ended earlier in the same stream (the agent's latest actions).
   */
  prejudge(call: ToolCall, before: readonly ToolCall[]): void;
  /** Cancels the classifications no gate took (a failed or abandoned turn), counting what they used. */
  dropPrejudged(): Promise<void>;
  /** A person decided a call the limit handed over: the streaks restart. */
  personDecided(): void;
  /** A person upheld a block on appeal: only now does the denial limit count it. */
  upheld(): void;
}

/** One tool call of a turn and its result, settled or still running. */
export type Slot = { call: ToolCall; result: Promise<ToolResultMessage> };
