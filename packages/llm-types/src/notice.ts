/**
 * A line from the engine to the host. Codes are stable strings (`classifier.unavailable`,
 * `route.fallback_to_primary`, `config.*`); `message` is for people, `detail` for programs.
 */
export interface EngineNotice {
  code: string;
  /** `user`: the session's user should hear it. `operator`: the deployment's owner should. */
  audience: "user" | "operator";
  message: string;
  detail: Record<string, unknown>;
  sessionId?: string;
  runId?: string;
}

/** Receives notices. Contract: a sink that throws is ignored; it never changes an outcome. */
export type NoticeSink = (notice: EngineNotice) => void;

/**
 * A trace frame: a point event (`auto_mode.classified`) or the start/end of a span (run, turn,
 * model call, tool call). Spans pair by `spanId`; `parentSpanId` nests them.
 */
export interface TraceFrame {
  name: string;
  phase: "point" | "start" | "end";
  at: number;
  spanId?: string;
  parentSpanId?: string;
  runId?: string;
  sessionId?: string;
  data: Record<string, unknown>;
}

/** Receives trace frames. Contract: a tracer that throws is ignored; it never changes an outcome. */
export interface Tracer {
  frame(frame: TraceFrame): void;
}

/**
 * Calls a host observer, swallowing anything it throws — or, for an async observer, the promise it
 * rejects: left alone that rejection is unhandled and can crash the host. Observers never change
 * an outcome.
 */
export function safeObserve<T>(observer: ((value: T) => void) | undefined, value: T): void {
  if (!observer) return;
  try {
    const returned: unknown = observer(value);
    if (typeof (returned as PromiseLike<unknown> | undefined)?.then === "function") {
      (returned as PromiseLike<unknown>).then(undefined, () => undefined);
    }
  } catch {
    // An observer's failure is its own; the run goes on unchanged.
  }
}
