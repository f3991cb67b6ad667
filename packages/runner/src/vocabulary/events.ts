import type { AssistantMessage, EngineNotice, ErrorKind, ToolCall, ToolResultMessage } from "@x/llm-types";
import type { ParkedRun } from "./park-schema";
import type { TaskPathEntry } from "./sub-run-types";
import type { ApprovalKind, Permission, TaskResult } from "./types";

/** What ruled on a gated call: a host rule, the classifier, or an earlier ruling on the identical call. */
export const VERDICT_SOURCES = ["rule", "classifier", "reused"] as const;
export type VerdictSource = (typeof VERDICT_SOURCES)[number];

/** What a classification ruled, as the event stream reports it: every verdict says who ruled and why. */
export interface VerdictInfo {
  verdict: "allow" | "block" | "unavailable" | "parse_error";
  /** Why a block blocked (the rule's sentence or the classifier's reason); why an allow rule allowed. */
  reason?: string;
  cause?: string;
  form?: string;
  /** The classifier model that ruled (the last rung asked); absent when a host rule decided. */
  model?: string;
  fallback?: boolean;
  wallMs: number;
  /** Which station ruled: this run's own (`leg`), or an ancestor run's (`ancestor`: its classifier or its rule). */
  station: "leg" | "ancestor";
  /** The ancestor run whose classifier or rule ruled, at the `ancestor` station. */
  ancestorRunId?: string;
  source: VerdictSource;
  /** The host rule that decided (`source: "rule"`, or a reused ruling a rule made). */
  ruleId?: string;
  /** The classifier's attempt that ruled: 1, or 2 when its first reply held no verdict and it was asked again. */
  attempt?: number;
}

/** Typed events of a streamed run, in order; `run_end` is always last. */
export type RunEvent =
  /** The run began, on this model (its id). */
  | { type: "run_start"; runId: string; sessionId?: string; model: string }
  /** A model call starts (turn numbers count from 1). */
  | { type: "turn_start"; turn: number; model: string }
  /** Answer text as it streams. */
  | { type: "text_delta"; turn: number; delta: string }
  /** Reasoning text as it streams, where the model shows it. */
  | { type: "thinking_delta"; turn: number; delta: string }
  /** A tool call's argument text as it streams. */
  | { type: "toolcall_delta"; turn: number; delta: string }
  /** The model call ended: the whole assistant message, with its stop reason, usage and cost. */
  | { type: "turn_end"; turn: number; message: AssistantMessage }
  /** The call failed and is tried again after `delayMs` (`attempt` counts from 1). */
  | { type: "retry"; model: string; attempt: number; delayMs: number; errorKind?: ErrorKind }
  /** The call moved to the next model of the chain. */
  | { type: "fallback"; from: string; to: string; errorKind?: ErrorKind }
  /** The model asked for a tool call, with the permission it gets. */
  | { type: "tool_call"; toolCall: ToolCall; permission: Permission }
  /** Auto mode ruled on a call: who ruled, and why. */
  | { type: "verdict"; toolCall: ToolCall; outcome: VerdictInfo }
  /** A person (the approver) answered for a call, after `waitMs`. */
  | {
      type: "approval";
      toolCall: ToolCall;
      kind: ApprovalKind;
      decision: "approve" | "deny" | "unavailable";
      waitMs: number;
    }
  /** A running tool reported progress. */
  | { type: "tool_progress"; toolCall: ToolCall; progress: number; total?: number; message?: string }
  /** A tool call finished (or was refused): the result the model reads. */
  | { type: "tool_result"; toolCall: ToolCall; result: ToolResultMessage }
  /** Something the host or the user should know (a fallback, a defaulted role, …). */
  | { type: "notice"; notice: EngineNotice }
  /** Older messages were folded into a summary to fit the window. */
  | {
      type: "compaction";
      /** `threshold`: the context was nearly full; `overflow`: the provider refused it as too long. */
      reason: "threshold" | "overflow";
      /** Messages folded into the summary now, and messages kept as they are. */
      folded: number;
      kept: number;
    }
  /** The run stopped to wait for an approval: a signed value `resume` continues. */
  | { type: "parked"; parked: ParkedRun }
  /** An event of a sub-run, with the delegating calls from this run down to it. */
  | { type: "sub_run"; path: TaskPathEntry[]; event: RunEvent }
  /** The run is over; always the last event. */
  | { type: "run_end"; result: TaskResult };

/** An unbounded single-consumer queue of events; iterating late loses nothing. */
export class EventChannel<T> implements AsyncIterable<T> {
  private readonly queue: T[] = [];
  private waiting: { resolve: (result: IteratorResult<T>) => void; reject: (error: unknown) => void } | undefined;
  private closed = false;
  /** Set when the producer failed: iteration ends by throwing it, once the queue is drained. */
  private failure: { error: unknown } | undefined;

  push(value: T): void {
    if (this.closed) return;
    const waiting = this.waiting;
    if (waiting) {
      this.waiting = undefined;
      waiting.resolve({ value, done: false });
    } else {
      this.queue.push(value);
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.resolve({ value: undefined, done: true });
  }

  /** Ends the stream with an error: a consumer reading only events still learns the run failed. */
  fail(error: unknown): void {
    if (this.closed) return;
    this.failure = { error };
    this.closed = true;
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.reject(error);
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return {
      next: () => {
        if (this.queue.length > 0) return Promise.resolve({ value: this.queue.shift() as T, done: false });
        if (this.failure) {
          const { error } = this.failure;
          this.failure = undefined;
          return Promise.reject(error instanceof Error ? error : new Error(String(error)));
        }
        if (this.closed) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve, reject) => (this.waiting = { resolve, reject }));
      },
      return: () => {
        this.close();
        this.queue.length = 0;
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}
