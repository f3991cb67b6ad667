import type { ErrorKind } from "@x/llm-types";
import type { RunStats, TaskResult } from "@x/runner";
import { judgeOutput, type JudgeContext } from "./judge";
import type { EscalationTrigger, VerdictRecord } from "./result";
import { STUCK_STOP_CODE } from "./student-run";

export interface Trigger {
  trigger: EscalationTrigger;
  reason: string;
}

export type Fired = {
  trigger?: Trigger & { verifyReason?: string };
  helperStats: RunStats[];
  verdicts: VerdictRecord[];
};

/** Provider failures behind a `failed` student that no advice changes: the run ends without a teacher. */
const UNTEACHABLE: ReadonlySet<ErrorKind> = new Set(["auth", "network", "rate_limited", "overloaded"]);

/**
 * Which trigger a student result fires, if any. `stuck` covers our own stop, the runner's loop guard
 * and running out of turns; a stop the host's observer asked for, a park, an abort or a spent budget
 * are the host's business and never escalate; nor does a failure the provider caused (`UNTEACHABLE`).
 */
export async function detectTrigger(judge: JudgeContext, result: TaskResult, run: number): Promise<Fired> {
  const none = { helperStats: [], verdicts: [] };
  const fire = (trigger: EscalationTrigger): Fired => ({
    ...none,
    trigger: { trigger, reason: result.terminal.message },
  });
  switch (result.status) {
    case "stuck":
      if (result.terminal.code === "observer_stop" && result.terminal.observerCode !== STUCK_STOP_CODE) return none;
      return fire("stuck");
    case "max_turns":
      return fire("stuck");
    case "blocked":
      return fire("blocked");
    case "failed":
      // A key the provider refused, or a provider out of reach, is nothing a teacher could correct.
      if (result.terminal.errorKind !== undefined && UNTEACHABLE.has(result.terminal.errorKind)) return none;
      return fire("failed");
    case "completed": {
      const judged = await judgeOutput(judge, result, run);
      const base = { helperStats: judged.helperStats, verdicts: judged.verdicts };
      // No decided verdict is no evidence of a wrong answer: the output stands.
      if (judged.pass !== false) return base;
      const reason = judged.reason ?? "the host's check rejected the answer";
      return { ...base, trigger: { trigger: "verify-fail", reason, verifyReason: reason } };
    }
    default:
      return none;
  }
}
