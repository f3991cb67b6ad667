import {
  context,
  SpanStatusCode,
  trace,
  type Attributes,
  type Span,
  type Tracer as OtelTracer,
} from "@opentelemetry/api";
import type { TraceFrame, Tracer } from "@x/llm-types";

/** Our cost attribute: OpenTelemetry's GenAI conventions name no cost field yet. */
export const COST_ATTRIBUTE = "x.usage.cost_micro_usd";

const num = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isFinite(value) ? value : undefined;
const str = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

function put(attributes: Attributes, key: string, value: string | number | boolean | string[] | undefined): void {
  if (value !== undefined) attributes[key] = value;
}

/** The span name and opening attributes for a runner span, per the GenAI semantic conventions. */
function opening(frame: TraceFrame): { name: string; attributes: Attributes } {
  const d = frame.data;
  const attributes: Attributes = {};
  put(attributes, "x.run.id", frame.runId);
  put(attributes, "gen_ai.conversation.id", frame.sessionId);
  switch (frame.name) {
    case "run":
      put(attributes, "gen_ai.operation.name", "invoke_agent");
      put(attributes, "gen_ai.agent.name", "x.runner");
      put(attributes, "gen_ai.request.model", str(d.model));
      put(attributes, "gen_ai.provider.name", str(d.provider));
      // A sub-run: its span already sits under the parent's tool-call span; these say so as data.
      put(attributes, "x.parent_run.id", str(d.parentRunId));
      put(attributes, "x.sub_run.depth", num(d.depth));
      return { name: "invoke_agent x.runner", attributes };
    case "turn":
      put(attributes, "x.turn.number", num(d.turn));
      return { name: `turn ${num(d.turn) ?? ""}`.trim(), attributes };
    case "model_call":
      put(attributes, "gen_ai.operation.name", "chat");
      put(attributes, "gen_ai.request.model", str(d.model));
      put(attributes, "gen_ai.provider.name", str(d.provider));
      put(attributes, "gen_ai.request.max_tokens", num(d.maxTokens));
      put(attributes, "x.attempt", num(d.attempt));
      return { name: `chat ${str(d.model) ?? ""}`.trim(), attributes };
    case "tool_call":
      put(attributes, "gen_ai.operation.name", "execute_tool");
      put(attributes, "gen_ai.tool.name", str(d.toolName));
      put(attributes, "gen_ai.tool.call.id", str(d.toolCallId));
      return { name: `execute_tool ${str(d.toolName) ?? ""}`.trim(), attributes };
    case "classification":
      put(attributes, "gen_ai.operation.name", "chat");
      put(attributes, "gen_ai.request.model", str(d.model));
      put(attributes, "gen_ai.tool.name", str(d.toolName));
      put(attributes, "gen_ai.tool.call.id", str(d.toolCallId));
      put(attributes, "x.auto_mode.station", str(d.station));
      put(attributes, "x.auto_mode.ancestor_run.id", str(d.ancestorRunId));
      return { name: `classify ${str(d.toolName) ?? ""}`.trim(), attributes };
    default:
      return { name: frame.name, attributes };
  }
}

/** Closing attributes: what the span learned (usage, cost, outcome). */
function closing(frame: TraceFrame, span: Span): void {
  const d = frame.data;
  const attributes: Attributes = {};
  put(
    attributes,
    "gen_ai.response.model",
    str(d.responseModel) ?? (frame.name === "classification" ? str(d.model) : undefined),
  );
  put(attributes, "gen_ai.usage.input_tokens", num(d.inputTokens));
  put(attributes, "gen_ai.usage.output_tokens", num(d.outputTokens));
  put(attributes, COST_ATTRIBUTE, num(d.costMicroUsd));
  if (str(d.stopReason)) put(attributes, "gen_ai.response.finish_reasons", [str(d.stopReason)!]);
  put(attributes, "error.type", str(d.errorKind));
  put(attributes, "x.run.status", str(d.status));
  put(attributes, "x.terminal.code", str(d.code) ?? str(d.terminal));
  put(attributes, "x.auto_mode.verdict", str(d.verdict));
  // Every verdict explains itself on its span too: who ruled (a host rule, the classifier, a reused
  // ruling), which rule, which attempt, and why.
  put(attributes, "x.auto_mode.source", str(d.source));
  put(attributes, "x.auto_mode.rule.id", str(d.ruleId));
  put(attributes, "x.auto_mode.attempt", num(d.attempt));
  put(attributes, "x.auto_mode.reason", str(d.reason));
  put(attributes, "x.turns", num(d.turns));
  put(attributes, "x.tool_calls", num(d.toolCalls));
  span.setAttributes(attributes);
  const failed =
    d.errorKind !== undefined ||
    d.isError === true ||
    (frame.name === "run" && d.status !== "completed" && d.status !== "parked");
  if (failed) span.setStatus({ code: SpanStatusCode.ERROR, message: str(d.errorKind) ?? str(d.code) ?? "error" });
}

/**
 * A runner {@link Tracer} that records OpenTelemetry spans: run (`invoke_agent`), turn, model call
 * (`chat`), tool call (`execute_tool`) and classification, nested as the runner nests them, with
 * GenAI semantic-convention attributes and our cost attribute. Point frames become span events on
 * their parent, or on the run's span.
 */
export function createOtelTracer(tracer: OtelTracer): Tracer {
  const open = new Map<string, { span: Span; runId?: string }>();
  const runs = new Map<string, Span>();
  return {
    frame(frame) {
      if (frame.phase === "start" && frame.spanId) {
        const parent = frame.parentSpanId ? open.get(frame.parentSpanId)?.span : undefined;
        const ctx = parent ? trace.setSpan(context.active(), parent) : context.active();
        const { name, attributes } = opening(frame);
        const span = tracer.startSpan(name, { attributes, startTime: frame.at }, ctx);
        open.set(frame.spanId, { span, ...(frame.runId !== undefined ? { runId: frame.runId } : {}) });
        if (frame.name === "run" && frame.runId) runs.set(frame.runId, span);
        return;
      }
      if (frame.phase === "end" && frame.spanId) {
        const span = open.get(frame.spanId)?.span;
        if (!span) return;
        open.delete(frame.spanId);
        if (frame.name === "run" && frame.runId) {
          runs.delete(frame.runId);
          // A run that ended on a throw leaves inner spans open: close them, marked, rather than
          // keeping them (and their memory) forever in a long-lived tracer.
          for (const [spanId, inner] of open) {
            if (inner.runId !== frame.runId) continue;
            open.delete(spanId);
            inner.span.setStatus({ code: SpanStatusCode.ERROR, message: "the run ended before this span did" });
            inner.span.end(frame.at);
          }
        }
        closing(frame, span);
        span.end(frame.at);
        return;
      }
      const target =
        (frame.parentSpanId && open.get(frame.parentSpanId)?.span) || (frame.runId && runs.get(frame.runId));
      if (!target) return;
      const attributes: Attributes = {};
      for (const [key, value] of Object.entries(frame.data)) {
        if (typeof value === "string" || typeof value === "number" || typeof value === "boolean")
          attributes[`x.${key}`] = value;
      }
      target.addEvent(frame.name, attributes, frame.at);
    },
  };
}
