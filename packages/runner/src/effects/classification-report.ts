import type { ToolCall, Tracer } from "@x/llm-types";
import { classifierUnavailableSeat, type AutoModeOutcome } from "@x/classifier-ladder";
import type { VerdictInfo } from "../vocabulary/events";
import type { RunContext } from "../state/run-context";
import { addClassifierUsage } from "../state/stats";
import { SPAN_NAMES } from "./tracer";
import { explainVerdict } from "../decisions/verdict-line";

/** Which classifier station judges a call: the run's own gate, or one ancestor's frozen classifier. */
export type StationMark = { station: "leg" } | { station: "ancestor"; ancestorRunId: string };

/** Trace frames from a decider say which station they come from (and, at `ancestor`, whose classifier). */
export function stationTracer(tracer: Tracer | undefined, mark: StationMark): Tracer | undefined {
  if (!tracer) return undefined;
  return { frame: (frame) => tracer.frame({ ...frame, data: { ...frame.data, ...mark } }) };
}

/** What a classification cost, as its span reports it: the same fields on every station. */
function classificationCost(outcome: AutoModeOutcome) {
  return {
    calls: outcome.calls,
    inputTokens: outcome.usage.input + outcome.usage.cacheRead + outcome.usage.cacheWrite,
    outputTokens: outcome.usage.output,
    costMicroUsd: outcome.usage.cost.total,
    wallMs: outcome.wallMs,
  };
}

/** The ruling as the event stream reports it; a fallback carries the form and no attribution. */
function verdictInfo(outcome: AutoModeOutcome, mark: StationMark): VerdictInfo {
  return {
    verdict: outcome.verdict,
    source: "classifier",
    model: outcome.model,
    wallMs: outcome.wallMs,
    ...mark,
    ...(outcome.verdict === "block" || outcome.verdict === "allow" ? { attempt: outcome.reasked ? 2 : 1 } : {}),
    ...(outcome.verdict === "block" ? { reason: outcome.reason } : {}),
    ...(outcome.verdict === "unavailable" ? { cause: outcome.cause } : {}),
    ...(outcome.verdict === "parse_error" ? { form: outcome.form } : {}),
    ...(outcome.fallback ? { fallback: true } : {}),
  };
}

/**
 * Opens the `classification` span for one call at one station; the returned function closes it
 * with the outcome, counts the classifier's usage into the run's stats, emits the `verdict`
 * event (and the notice of a block) and returns what it reported. Both stations report through
 * this, so their spans and events never drift apart.
 */
export function openClassification(
  ctx: RunContext,
  call: ToolCall,
  modelId: string,
  mark: StationMark,
): (outcome: AutoModeOutcome) => VerdictInfo {
  const subject = { toolName: call.name, toolCallId: call.id };
  const span = ctx.tracer.start(SPAN_NAMES.classification, { ...subject, model: modelId, ...mark }, ctx.turnSpan);
  return (outcome) => {
    addClassifierUsage(ctx.state.stats, outcome.usage, outcome.calls);
    ctx.tracer.end(
      span,
      SPAN_NAMES.classification,
      {
        ...subject,
        ...mark,
        model: outcome.model,
        verdict: outcome.verdict,
        source: "classifier",
        ...(outcome.verdict === "block" ? { reason: outcome.reason } : {}),
        ...(outcome.verdict === "block" || outcome.verdict === "allow" ? { attempt: outcome.reasked ? 2 : 1 } : {}),
        ...(outcome.fallback ? { fallback: true } : {}),
        ...classificationCost(outcome),
      },
      ctx.turnSpan,
    );
    const info = verdictInfo(outcome, mark);
    announceVerdict(ctx, call, info);
    return info;
  };
}

/**
 * A verdict no classifier was asked for — a host rule's, or a ruling reused from the identical call
 * earlier in the run — reported on the same surfaces as a classification: a span, the event, the notice.
 */
export function reportVerdict(ctx: RunContext, call: ToolCall, info: VerdictInfo): void {
  const subject = { toolName: call.name, toolCallId: call.id };
  const mark = { station: info.station, ...(info.ancestorRunId ? { ancestorRunId: info.ancestorRunId } : {}) };
  const span = ctx.tracer.start(SPAN_NAMES.classification, { ...subject, ...mark, source: info.source }, ctx.turnSpan);
  ctx.tracer.end(
    span,
    SPAN_NAMES.classification,
    {
      ...subject,
      ...mark,
      verdict: info.verdict,
      source: info.source,
      ...(info.model !== undefined ? { model: info.model } : {}),
      ...(info.reason !== undefined ? { reason: info.reason } : {}),
      ...(info.ruleId !== undefined ? { ruleId: info.ruleId } : {}),
      ...(info.attempt !== undefined ? { attempt: info.attempt } : {}),
      calls: 0,
      wallMs: info.wallMs,
    },
    ctx.turnSpan,
  );
  announceVerdict(ctx, call, info);
}

/** The `verdict` event, and for a block the `auto_mode.blocked` notice saying who blocked the call and why. */
function announceVerdict(ctx: RunContext, call: ToolCall, info: VerdictInfo): void {
  ctx.emit({ type: "verdict", toolCall: call, outcome: info });
  if (info.verdict !== "block") return;
  ctx.notice({
    code: "auto_mode.blocked",
    audience: "user",
    message: explainVerdict(call.name, info),
    detail: { toolName: call.name, toolCallId: call.id, ...info },
  });
}

/**
 * The once-per-classifier `classifier.unavailable` notice for a call its station could not rule
 * on; `approvalSeat` says whether a person stands behind that station.
 */
export function noticeUnavailable(
  ctx: RunContext,
  call: ToolCall,
  seat: { station: StationMark["station"]; approvalSeat: boolean; budgetMs: number },
  cause: Extract<AutoModeOutcome, { verdict: "unavailable" }>["cause"],
): void {
  classifierUnavailableSeat({
    ...seat,
    onNotice: (n) => ctx.notice(n),
    runId: ctx.runId,
    ...(ctx.sessionId !== undefined ? { sessionId: ctx.sessionId } : {}),
  }).fork({ toolName: call.name, toolCallId: call.id, cause });
}
