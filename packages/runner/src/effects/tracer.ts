import { safeObserve, type TraceFrame, type Tracer } from "@x/llm-types";
import type { RunTrace } from "../state/run-parts";

/** Span names the runner emits; the OpenTelemetry adapter maps each to a GenAI operation. */
export const SPAN_NAMES = {
  run: "run",
  turn: "turn",
  modelCall: "model_call",
  toolCall: "tool_call",
  classification: "classification",
} as const;

/**
 * The run's view of the host tracer: span ids, parents, and the guarantee that a throwing
 * tracer never changes an outcome.
 */
export class RunTracer implements RunTrace {
  private next = 0;
  constructor(
    private readonly tracer: Tracer | undefined,
    private readonly now: () => number,
    private readonly runId: string,
    private readonly sessionId: string | undefined,
  ) {}

  private emit(frame: Omit<TraceFrame, "at" | "runId" | "sessionId">): void {
    if (!this.tracer) return;
    const full: TraceFrame = { ...frame, at: this.now(), runId: this.runId };
    if (this.sessionId !== undefined) full.sessionId = this.sessionId;
    // The tracer's failure (a throw, or an async tracer's rejection) is its own; the run goes on unchanged.
    const tracer = this.tracer;
    safeObserve((value: TraceFrame) => tracer.frame(value), full);
  }

  start(name: string, data: Record<string, unknown>, parentSpanId?: string): string {
    const spanId = `${this.runId}:${++this.next}`;
    this.emit({ name, phase: "start", spanId, ...(parentSpanId ? { parentSpanId } : {}), data });
    return spanId;
  }

  end(spanId: string, name: string, data: Record<string, unknown>, parentSpanId?: string): void {
    this.emit({ name, phase: "end", spanId, ...(parentSpanId ? { parentSpanId } : {}), data });
  }
}
