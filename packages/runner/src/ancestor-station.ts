import type { Message, Model, ToolCall, ToolSpec, Tracer } from "@x/llm-types";
import {
  CLASSIFIER_ARMING_NOTICES,
  classifierSeatModel,
  classifierUnavailableSeat,
  createAutoModeDecider,
  type AutoModeDecider,
  type AutoModeOutcome,
  type AutoModeVerdict,
} from "@x/classifier-ladder";
import { runBudgetExceeded } from "./budget";
import type { RunContext } from "./run-context";
import { addClassifierUsage } from "./stats";
import { SPAN_NAMES } from "./tracer";

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
  /** Armed on the first call it judges. */
  decider?: AutoModeDecider;
}

export function freezeAncestor(ctx: RunContext): AncestorFrame {
  return {
    runId: ctx.runId,
    main: ctx.taskModel.model,
    transcript: [...ctx.history, ...ctx.messages],
    toolSpecs: ctx.toolSpecs,
    approverLive: ctx.deps.approver !== undefined,
  };
}

/** What the ancestor stations ruled: the verdict the gate acts on, and what the child's denial limit records. */
export interface AncestorRuling {
  verdict: AutoModeVerdict;
  record: AutoModeVerdict;
}

const ARMING_NOTICES = new Set(CLASSIFIER_ARMING_NOTICES);

/** Trace frames from a decider say which station they come from (and, at `ancestor`, whose classifier). */
export function stationTracer(
  tracer: Tracer | undefined,
  station: "leg" | "ancestor",
  ancestorRunId?: string,
): Tracer | undefined {
  if (!tracer) return undefined;
  const mark = ancestorRunId !== undefined ? { station, ancestorRunId } : { station };
  return { frame: (frame) => tracer.frame({ ...frame, data: { ...frame.data, ...mark } }) };
}

function arm(ctx: RunContext, frame: AncestorFrame): AutoModeDecider {
  const options = ctx.deps.autoMode;
  const tracer = stationTracer(ctx.deps.tracer, "ancestor", frame.runId);
  frame.decider ??= createAutoModeDecider({
    brainFor: (model) => ctx.deps.brains.get(model.api),
    seat: classifierSeatModel({ deps: ctx.deps.routing, main: frame.main }),
    main: frame.main,
    classifierFallback: options.classifierFallback,
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    // The ancestor announced its own seat when it armed; the child's notices are about rulings.
    onNotice: (notice) => {
      if (!ARMING_NOTICES.has(notice.code)) ctx.notice(notice);
    },
    ...(tracer ? { tracer } : {}),
    // Billed to the child (and so to every ancestor): the budget stops it like any model call.
    admitCall: (spent) => runBudgetExceeded(ctx, spent)?.message,
    taskId: frame.runId,
    runId: ctx.runId,
    ...(ctx.sessionId !== undefined ? { sessionId: ctx.sessionId } : {}),
  });
  return frame.decider;
}

/** What a classification cost, as its span reports it: the same fields on every station. */
export function classificationCost(outcome: AutoModeOutcome) {
  return {
    calls: outcome.calls,
    inputTokens: outcome.usage.input + outcome.usage.cacheRead + outcome.usage.cacheWrite,
    outputTokens: outcome.usage.output,
    costMicroUsd: outcome.usage.cost.total,
    wallMs: outcome.wallMs,
  };
}

function report(ctx: RunContext, call: ToolCall, frame: AncestorFrame, outcome: AutoModeOutcome, span: string): void {
  addClassifierUsage(ctx.state.stats, outcome.usage, outcome.calls);
  ctx.tracer.end(
    span,
    SPAN_NAMES.classification,
    {
      toolName: call.name,
      toolCallId: call.id,
      station: "ancestor",
      ancestorRunId: frame.runId,
      model: outcome.model,
      verdict: outcome.verdict,
      ...(outcome.verdict === "block" ? { reason: outcome.reason } : {}),
      // The inherited chain's fallback record carries the form and no attribution.
      ...(outcome.fallback ? { fallback: true } : {}),
      ...classificationCost(outcome),
    },
    ctx.turnSpan,
  );
  ctx.emit({
    type: "verdict",
    toolCall: call,
    outcome: {
      verdict: outcome.verdict,
      model: outcome.model,
      wallMs: outcome.wallMs,
      station: "ancestor",
      ancestorRunId: frame.runId,
      ...(outcome.verdict === "block" ? { reason: outcome.reason } : {}),
      ...(outcome.verdict === "unavailable" ? { cause: outcome.cause } : {}),
      ...(outcome.verdict === "parse_error" ? { form: outcome.form } : {}),
      ...(outcome.fallback ? { fallback: true } : {}),
    },
  });
}

/**
 * A call that could not be ruled on at an ancestor station goes to that ancestor's frozen
 * approver. A live one is asked (its `unavailable` then parks the tree); with none, the call is
 * refused — an ancestor's seat with no person behind it never reaches a park.
 */
function cannotRule(ctx: RunContext, call: ToolCall, frame: AncestorFrame, outcome: AutoModeOutcome): AncestorRuling {
  const quiet = runBudgetExceeded(ctx) !== undefined || ctx.signal.aborted;
  if (outcome.verdict === "unavailable" && !quiet) {
    classifierUnavailableSeat({
      station: "ancestor",
      approvalSeat: frame.approverLive,
      budgetMs: frame.decider!.timeoutMs,
      onNotice: (n) => ctx.notice(n),
      runId: ctx.runId,
      ...(ctx.sessionId !== undefined ? { sessionId: ctx.sessionId } : {}),
    }).fork({ toolName: call.name, toolCallId: call.id, cause: outcome.cause });
  }
  const verdict: AutoModeVerdict =
    outcome.verdict === "unavailable"
      ? { verdict: "unavailable", cause: outcome.cause }
      : { verdict: "parse_error", form: outcome.verdict === "parse_error" ? outcome.form : "missing" };
  if (frame.approverLive || quiet) return { verdict, record: verdict };
  return {
    verdict: {
      verdict: "block",
      reason: `the classifier of ancestor run ${frame.runId} could not rule on it, and no person is at that run's approval seat`,
    },
    // Not a block the denial limit counts: nobody judged the call unsafe.
    record: verdict,
  };
}

/**
 * The `ancestor` stations: every ancestor's frozen classifier judges a call the child's own
 * classifier allowed, nearest ancestor first. The call runs only if every one allows it; the first
 * that does not decides the outcome.
 */
export async function judgeByAncestors(
  ctx: RunContext,
  call: ToolCall,
  signal: AbortSignal,
): Promise<AncestorRuling | undefined> {
  const ancestors = ctx.lineage?.ancestors ?? [];
  for (const frame of ancestors) {
    const decider = arm(ctx, frame);
    const span = ctx.tracer.start(
      SPAN_NAMES.classification,
      {
        toolName: call.name,
        toolCallId: call.id,
        model: decider.model.id,
        station: "ancestor",
        ancestorRunId: frame.runId,
      },
      ctx.turnSpan,
    );
    const spec = ctx.toolSpecs.find((tool) => tool.name === call.name);
    const outcome = await decider.decide({
      toolCall: call,
      transcript: frame.transcript,
      tools: spec ? [...frame.toolSpecs, spec] : frame.toolSpecs,
      signal,
    });
    report(ctx, call, frame, outcome, span);
    if (outcome.verdict === "allow") continue;
    if (outcome.verdict === "block") {
      const verdict: AutoModeVerdict = {
        verdict: "block",
        reason: `${outcome.reason} (ruled by the classifier of ancestor run ${frame.runId})`,
      };
      return { verdict, record: verdict };
    }
    return cannotRule(ctx, call, frame, outcome);
  }
  return undefined;
}
