import { safeObserve, type EngineNotice, type NoticeSink } from "@x/llm-types";
import type { AutoModeUnavailableCause } from "./outcome";

/** Where a call goes when its classification could not rule: to a person (`asked`), or refused (`denied`). */
export type ClassifierUnavailableDisposition = "asked" | "denied";

/** The facts of one classification that could not rule. */
export interface ClassifierUnavailableInfo {
  toolName: string;
  toolCallId: string;
  cause: AutoModeUnavailableCause;
  disposition: ClassifierUnavailableDisposition;
}

/**
 * Which station forked: `leg` — this run's own gate, on its own approval seat; `ancestor` — an
 * ancestor run's classifier, on that ancestor's approver. `budgetMs` is the budget the classifier
 * held (the decider's `timeoutMs`), when known.
 */
export interface ClassifierUnavailableStation {
  station: "leg" | "ancestor";
  budgetMs?: number;
}

/**
 * The `classifier.unavailable` notice: a classification could not rule, and where the call went.
 * Audience `user` — it is their call that did not run automatically, and on a lane with no approval
 * face this line is the only place they hear why. It is never a block: the denial limit does not
 * count it.
 */
export function classifierUnavailableNotice(
  args: ClassifierUnavailableInfo & ClassifierUnavailableStation & { sessionId?: string; runId?: string },
): EngineNotice {
  const { toolName, toolCallId, cause, disposition, station, budgetMs, sessionId, runId } = args;
  const why =
    cause === "timeout"
      ? budgetMs !== undefined
        ? `did not answer within its ${budgetMs} ms budget (timeoutMs)`
        : "ran out of its time budget (timeoutMs)"
      : "failed to answer";
  const whose = station === "leg" ? "this run's" : "the parent run's";
  const where =
    disposition === "asked"
      ? `The call was handed to ${whose} approval seat for a person to decide.`
      : `There is no one at ${whose} approval seat to ask, so the call was refused.`;
  return {
    code: "classifier.unavailable",
    audience: "user",
    message: `The auto-mode classifier ${why} for ${toolName}. ${where}`,
    detail: {
      toolName,
      toolCallId,
      cause,
      disposition,
      station,
      ...(budgetMs !== undefined ? { budgetMs } : {}),
      ...(sessionId !== undefined ? { sessionId } : {}),
      ...(runId !== undefined ? { runId } : {}),
    },
    ...(sessionId !== undefined ? { sessionId } : {}),
    ...(runId !== undefined ? { runId } : {}),
  };
}

/** A classifier station's fork, wired once: where an unavailable classification's call goes, and its notice. */
export interface ClassifierUnavailableSeat {
  readonly station: "leg" | "ancestor";
  /** Whether a call handed on from here reaches a person (a live approver or a durable park). */
  readonly approvalSeat: boolean;
  readonly disposition: ClassifierUnavailableDisposition;
  /** Announces `classifier.unavailable` for one call and returns where the call goes. */
  fork(info: {
    toolName: string;
    toolCallId: string;
    cause: AutoModeUnavailableCause;
  }): ClassifierUnavailableDisposition;
}

export function classifierUnavailableSeat(
  args: ClassifierUnavailableStation & {
    approvalSeat: boolean;
    onNotice?: NoticeSink;
    sessionId?: string;
    runId?: string;
  },
): ClassifierUnavailableSeat {
  const { station, budgetMs, approvalSeat, onNotice, sessionId, runId } = args;
  const disposition: ClassifierUnavailableDisposition = approvalSeat ? "asked" : "denied";
  return {
    station,
    approvalSeat,
    disposition,
    fork(info) {
      safeObserve(
        onNotice,
        classifierUnavailableNotice({
          ...info,
          disposition,
          station,
          ...(budgetMs !== undefined ? { budgetMs } : {}),
          ...(sessionId !== undefined ? { sessionId } : {}),
          ...(runId !== undefined ? { runId } : {}),
        }),
      );
      return disposition;
    },
  };
}
