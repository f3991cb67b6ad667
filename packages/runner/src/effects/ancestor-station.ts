import type { ToolCall } from "@x/llm-types";
import {
  CLASSIFIER_ARMING_NOTICES,
  classifierSeatModel,
  createAutoModeDecider,
  type AutoModeDecider,
  type AutoModeOutcome,
  type AutoModeVerdict,
} from "@x/classifier-ladder";
import { runBudgetExceeded } from "../decisions/budget";
import { ruleAllowance } from "../decisions/auto-mode-rules";
import { noticeUnavailable, openClassification, reportVerdict, stationTracer } from "./classification-report";
import type { RunContext } from "../state/run-context";
import type { AncestorFrame } from "../state/run-parts";
import type { VerdictInfo } from "../vocabulary/events";

export function freezeAncestor(ctx: RunContext): AncestorFrame {
  return {
    runId: ctx.runId,
    main: ctx.taskModel.model,
    transcript: [...ctx.history, ...ctx.messages],
    toolSpecs: ctx.toolSpecs,
    approverLive: ctx.deps.approver !== undefined,
    ...(ctx.spec.autoModeRules ? { rules: ctx.spec.autoModeRules } : {}),
  };
}

/**
 * What the ancestor stations ruled: the verdict the gate acts on, what the child's denial limit
 * records, and — for a block — who blocked it (so an identical call later gets the same ruling).
 */
export interface AncestorRuling {
  verdict: AutoModeVerdict;
  record: AutoModeVerdict;
  info?: VerdictInfo;
}

const ARMING_NOTICES = new Set(CLASSIFIER_ARMING_NOTICES);

function arm(ctx: RunContext, frame: AncestorFrame): AutoModeDecider {
  const options = ctx.deps.autoMode;
  const tracer = stationTracer(ctx.deps.tracer, { station: "ancestor", ancestorRunId: frame.runId });
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

/**
 * A call that could not be ruled on at an ancestor station goes to that ancestor's frozen
 * approver. A live one is asked (its `unavailable` then parks the tree); with none, the call is
 * refused — an ancestor's seat with no person behind it never reaches a park.
 */
function cannotRule(ctx: RunContext, call: ToolCall, frame: AncestorFrame, outcome: AutoModeOutcome): AncestorRuling {
  const quiet = runBudgetExceeded(ctx) !== undefined || ctx.signal.aborted;
  if (outcome.verdict === "unavailable" && !quiet) {
    const seat = { station: "ancestor" as const, approvalSeat: frame.approverLive, budgetMs: frame.decider!.timeoutMs };
    noticeUnavailable(ctx, call, seat, outcome.cause);
  }
  const verdict: AutoModeVerdict =
    outcome.verdict === "unavailable"
      ? { verdict: "unavailable", cause: outcome.cause }
      : { verdict: "parse_error", form: outcome.verdict === "parse_error" ? outcome.form : "missing" };
  if (frame.approverLive || quiet) return { verdict, record: verdict };
  return {
    verdict: {
      verdict: "block",
      reason:
        `the classifier of ancestor run ${frame.runId} could not ` +
        "rule on it, and no person is at that run's approval seat",
    },
    // Not a block the denial limit counts: nobody judged the call unsafe.
    record: verdict,
  };
}

/**
 * The `ancestor` stations: every ancestor judges a call the child's own station allowed, nearest
 * ancestor first — by its own allow rule when one holds, else by its frozen classifier. The call
 * runs only if every one allows it; the first that does not decides the outcome.
 */
export async function judgeByAncestors(
  ctx: RunContext,
  call: ToolCall,
  signal: AbortSignal,
): Promise<AncestorRuling | undefined> {
  const ancestors = ctx.lineage?.ancestors ?? [];
  for (const frame of ancestors) {
    const allowed = ruleAllowance(frame.rules, call);
    if (allowed) {
      const mark = { station: "ancestor" as const, ancestorRunId: frame.runId };
      reportVerdict(ctx, call, { verdict: "allow", source: "rule", ruleId: allowed.ruleId, wallMs: 0, ...mark });
      continue;
    }
    const decider = arm(ctx, frame);
    const report = openClassification(ctx, call, decider.model.id, { station: "ancestor", ancestorRunId: frame.runId });
    const spec = ctx.toolSpecs.find((tool) => tool.name === call.name);
    const outcome = await decider.decide({
      toolCall: call,
      transcript: frame.transcript,
      tools: spec ? [...frame.toolSpecs, spec] : frame.toolSpecs,
      signal,
    });
    const info = report(outcome);
    if (outcome.verdict === "allow") continue;
    if (outcome.verdict === "block") {
      const verdict: AutoModeVerdict = {
        verdict: "block",
        reason: `${outcome.reason} (ruled by the classifier of ancestor run ${frame.runId})`,
      };
      return { verdict, record: verdict, info };
    }
    return cannotRule(ctx, call, frame, outcome);
  }
  return undefined;
}
