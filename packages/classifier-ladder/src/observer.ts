import { safeObserve, type NoticeSink, type Tracer } from "@x/llm-types";
import type { AutoModeClassified } from "./outcome";

/** Classifications in a row on one model that broke the answer format before it is reported. */
export const CLASSIFIER_CONTRACT_BROKEN_STREAK = 3;

/**
 * The `classifier.fallback` notice is repeated at these counts only (1, 10, 100, …), so a dead seat stays visible
 * without flooding.
 */
function isThrottleStep(count: number): boolean {
  return /^10*$/.test(String(count));
}

/**
 * The per-classification read, as one observer: the `auto_mode.classified` trace frame (a block
 * carries its `reason`), the
 * throttled `classifier.fallback` notice, and the per-model `classifier.contract_broken` streak (a
 * model whose replies keep missing the format: a `parse_error`, or a verdict only after a re-ask).
 * Every sink is called through {@link safeObserve}: an observer never reaches the verdict.
 *
 * The frame's `model` is the model the classification ran on; `seatModelId` stands in only for a
 * round that names none.
 */
export function classifierRoundObserver(args: {
  tracer?: Tracer;
  onNotice?: NoticeSink;
  taskId: string;
  seatModelId: string;
  sessionId?: string;
  runId?: string;
}): (info: AutoModeClassified) => void {
  const { tracer, onNotice, taskId, seatModelId, sessionId, runId } = args;
  const ids = { ...(sessionId !== undefined ? { sessionId } : {}), ...(runId !== undefined ? { runId } : {}) };
  const fallbacks = new Map<string, number>();
  const streaks = new Map<string, number>();

  return (info) => {
    const model = info.model || seatModelId;
    const data: Record<string, unknown> = {
      taskId,
      toolName: info.toolName,
      toolCallId: info.toolCallId,
      verdict: info.verdict,
      model,
      wallMs: info.wallMs,
      calls: info.calls,
      tokens: info.usage.totalTokens,
      costMicros: info.usage.cost.total,
      reasked: info.reasked,
    };
    if (info.verdict === "block") data.reason = info.reason;
    if (info.verdict === "unavailable") data.cause = info.cause;
    if (info.verdict === "parse_error") data.form = info.form;
    if (info.fallback) data.fallback = info.fallback;
    if (tracer)
      safeObserve((frame) => tracer.frame(frame), {
        name: "auto_mode.classified",
        phase: "point" as const,
        at: Date.now(),
        ...ids,
        data,
      });

    if (info.fallback) {
      const { from, to, cause } = info.fallback;
      const key = `${from}\u0000${to}`;
      const count = (fallbacks.get(key) ?? 0) + 1;
      fallbacks.set(key, count);
      if (isThrottleStep(count)) {
        safeObserve(onNotice, {
          code: "classifier.fallback",
          audience: "operator",
          message:
            `The auto-mode classifier ${from} could not rule (${cause}); ${to} was asked instead` +
            `${count > 1 ? ` (${count} times this run)` : ""}.`,
          detail: { from, to, cause, count, toolName: info.toolName, toolCallId: info.toolCallId },
          ...ids,
        });
      }
    }

    if (info.verdict === "unavailable") return;
    const broken = info.verdict === "parse_error" || info.reasked;
    if (!broken) {
      streaks.delete(model);
      return;
    }
    const streak = (streaks.get(model) ?? 0) + 1;
    streaks.set(model, streak);
    if (streak === CLASSIFIER_CONTRACT_BROKEN_STREAK) {
      safeObserve(onNotice, {
        code: "classifier.contract_broken",
        audience: "operator",
        message:
          `The classifier model ${model} has missed the answer format ${streak} times in a row; ` +
          "gated calls are being sent to approval or re-asked. Consider another classifier model.",
        detail: { model, streak, last: info.verdict === "parse_error" ? info.form : "reasked" },
        ...ids,
      });
    }
  };
}
