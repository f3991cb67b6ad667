import { randomUUID } from "node:crypto";
import { safeObserve, type ErrorKind, type Message, type MessageProvenance } from "@x/llm-types";
import {
  emptyRunStats,
  sumRunStats,
  type ObserverStop,
  type Runner,
  type RunStats,
  type TaskResult,
  type TaskSpec,
  type ToolResultInfo,
} from "@x/runner";
import { formatAdviceForStudent, type TeacherAdvice } from "./advice";
import {
  resolveTeacherConfig,
  type EscalationPolicyInfo,
  type ResolvedTeacherConfig,
  type TeacherConfig,
} from "./config";
import { checkGuards, teacherAllowance } from "./guards";
import { judgeOutput, judgeTakeover, type JudgeContext } from "./judge";
import type { EscalationRecord, EscalationTrigger, TeacherRunResult, TeacherStrategies, VerdictRecord } from "./result";
import { askMonitor, askTeacher, clip, helperCall, teacherBrief, teacherCall, type SideCallSpec } from "./side-calls";
import { toTeacherStats } from "./stats";
import {
  recallStrategies,
  rememberStrategy,
  reportOutcome,
  strategiesProvenance,
  withStrategies,
} from "./strategy-memory";
import { StuckTracker } from "./stuck";
import { canTakeOverInOneCall, runTakeover, takeOverAtOnce } from "./takeover";

/** The `observerCode` a student run ends with when teacher mode stops it as stuck. */
export const STUCK_STOP_CODE = "teacher.stuck";

interface Trigger {
  trigger: EscalationTrigger;
  reason: string;
}

/**
 * Runs `studentSpec` on the cheap student and consults the teacher only when the student is
 * detectably stuck or wrong: a stall in its tool results (Tier 0), a failing rubric verdict on its
 * completed output (Tier 1), or a `blocked` / `failed` end. The teacher answers in a session of its
 * own; only its advice, as one appended user message, enters the student's session, so every request
 * the student makes after it extends the previous one (the provider's prompt cache keeps working).
 * After `takeoverAfter` failed corrections, or when the teacher asks, the teacher does the task itself;
 * its answer is checked by the host's `verify` as the student's is, and one that fails ends `failed`.
 */
export async function runWithTeacher(
  runner: Runner,
  studentSpec: TaskSpec,
  teacher?: TeacherConfig,
): Promise<TeacherRunResult> {
  const config = resolveTeacherConfig(teacher, studentSpec);
  const task = studentSpec.objective;
  const recalled = config.injectStrategies ? await recallStrategies(config, task) : [];
  const firstObjective = withStrategies(task, recalled);

  // The runner keys provider prompt caches by session (else by run): one id keeps every continuation
  // on the same cache, and the teacher's and helper's calls each on one of their own.
  const sessionId = studentSpec.sessionId ?? `student-${randomUUID()}`;
  const helper = helperCall(config, studentSpec, `${sessionId}:helper`);
  const teacherAt = teacherCall(config, `${sessionId}:teacher`);
  const judge: JudgeContext = { runner, config, helper, task };
  const tracker = new StuckTracker({ threshold: config.stuckThreshold, hardOverride: config.stuckHardOverride });
  const escalations: EscalationRecord[] = [];
  const verdicts: VerdictRecord[] = [];
  let studentStats = emptyRunStats();
  // The student's own runs, without helper calls: what the spend guards measure the teacher against.
  let ownStats = emptyRunStats();
  let teacherRunStats = emptyRunStats();
  const session: Message[] = [];
  let objective = firstObjective;
  let objectiveProvenance: MessageProvenance = strategiesProvenance(firstObjective, task);

  const finish = async (result: TaskResult, messages: Message[], resolved: boolean): Promise<TeacherRunResult> => {
    const stored = resolved ? await rememberStrategy(config, task, escalations.at(-1)) : undefined;
    await reportOutcome(config, recalled, resolved);
    const strategies: TeacherStrategies = {
      recalled: recalled.map(({ record, score }) => ({ id: record.id, score, strategy: record.strategy })),
    };
    if (stored) strategies.stored = stored;
    return {
      ...result,
      messages,
      stats: studentStats,
      escalations,
      teacherStats: toTeacherStats(teacherRunStats),
      strategies,
      verdicts,
    };
  };

  // A takeover's answer is checked like the student's: one the host's verify rejects is no success —
  // the run ends unresolved (its verdict recorded) and nothing is learned from it.
  const settle = async (takeover: TaskResult, run: number): Promise<TeacherRunResult> => {
    const judged = await judgeTakeover(judge, takeover, run);
    studentStats = judged.helperStats.reduce(sumRunStats, studentStats);
    verdicts.push(...judged.verdicts);
    const messages = [...session, ...takeover.messages];
    if (judged.pass !== false) return finish(takeover, messages, takeover.status === "completed");
    const why = judged.reason ?? "the host's check rejected the answer";
    const message = `the teacher's takeover answer failed the host's verify: ${why}`;
    return finish(
      { ...takeover, status: "failed", terminal: { code: "output_invalid", cause: "output", message } },
      messages,
      false,
    );
  };

  for (let run = 1; ; run++) {
    const spec = {
      ...studentSpec,
      sessionId,
      history: [...(studentSpec.history ?? []), ...session],
      objective,
      objectiveProvenance,
      budget: remaining(studentSpec.budget, studentStats),
    };
    const student = await runStudent(runner, spec, config, helper, tracker, task);
    ownStats = sumRunStats(ownStats, student.result.stats);
    studentStats = sumRunStats(studentStats, sumRunStats(student.result.stats, student.helperStats));
    session.push(...student.result.messages);

    const fired = await detectTrigger(judge, student.result, run);
    studentStats = fired.helperStats.reduce(sumRunStats, studentStats);
    verdicts.push(...fired.verdicts);
    if (!fired.trigger) return finish(student.result, session, student.result.status === "completed");

    const attempt = escalations.length + 1;
    const refused = checkGuards(
      {
        escalations: escalations.length,
        teacherTokens: teacherRunStats.tokens,
        studentTokens: ownStats.tokens,
        teacherMicroUsd: teacherRunStats.costMicroUsd,
        studentMicroUsd: ownStats.costMicroUsd,
      },
      config,
    );
    if (refused) return finish(student.result, session, false);
    const recent = [
      ...tracker.recent(),
      ...(student.result.output.trim() ? [`final answer: ${clip(student.result.output, 500)}`] : []),
    ];
    const info: EscalationPolicyInfo = { trigger: fired.trigger.trigger, attempt, result: student.result, recent };
    if (fired.trigger.verifyReason !== undefined) info.verifyReason = fired.trigger.verifyReason;
    if (!(await policyAllows(config, info))) return finish(student.result, session, false);

    const failure = {
      ...fired.trigger,
      recent: tracker.recent(),
      output: student.result.output,
      earlier: escalations.map((e) => e.teacher),
    };
    const trigger = fired.trigger.trigger;
    const record = (teacher: TeacherAdvice, tookOver: boolean): void => {
      const entry: EscalationRecord = { attempt, trigger, teacher, tookOver };
      escalations.push(entry);
      safeObserve(config.onEscalation, entry);
    };
    const allowance = teacherAllowance(config, teacherRunStats.costMicroUsd);
    const teacherBudget = allowance === undefined ? undefined : { microUsd: allowance };
    // The host's budget is the task's: a takeover, like a continuation, gets only what the student left.
    const takeoverSpec = { ...studentSpec, budget: tighter(remaining(studentSpec.budget, studentStats), allowance) };
    // Corrections have run out (escalations so far are the failed ones): the teacher takes over instead
    // of correcting again — with its advice in the same call when something will keep it, and without
    // any advice ask when nothing will.
    const decided = escalations.length >= config.takeoverAfter;
    if (decided && (!config.takeoverAdvice || canTakeOverInOneCall(studentSpec))) {
      const takeover = await takeOverAtOnce(
        runner,
        takeoverSpec,
        config,
        teacherAt,
        firstObjective,
        failure,
        config.takeoverAdvice,
      );
      teacherRunStats = sumRunStats(teacherRunStats, takeover.result.stats);
      record(takeover.advice, takeover.reached);
      if (!takeover.reached) return finish(student.result, session, false);
      return settle(takeover.result, run);
    }

    const brief = teacherBrief({ task, ...failure });
    const asked = await askTeacher(runner, teacherAt, config, brief, teacherBudget);
    teacherRunStats = sumRunStats(teacherRunStats, asked.stats);
    const allowanceLeft = teacherAllowance(config, teacherRunStats.costMicroUsd);
    const wantsTakeover = asked.advice.takeover || decided;
    // The advice used up `teacherMaxMicroUsd`: like the guard before an escalation, that refuses the takeover.
    const tookOver = asked.answered && wantsTakeover && allowanceLeft !== 0;
    record(asked.advice, tookOver);
    // A teacher that could not be reached has nothing to pass on: the student's result stands.
    if (!asked.answered || (wantsTakeover && !tookOver)) return finish(student.result, session, false);

    if (tookOver) {
      const spec = { ...studentSpec, budget: tighter(remaining(studentSpec.budget, studentStats), allowanceLeft) };
      const takeover = await runTakeover(runner, spec, config, teacherAt, firstObjective, failure, escalations);
      teacherRunStats = sumRunStats(teacherRunStats, takeover.stats);
      return settle(takeover, run);
    }

    // Correction: the advice is appended to the student's own session, which is never rewritten.
    objective = formatAdviceForStudent(asked.advice);
    objectiveProvenance = "teacher";
    tracker.resetStreak();
  }
}

/** One student run, with the Tier-0 stuck detector watching its tool results. */
async function runStudent(
  runner: Runner,
  spec: TaskSpec,
  config: ResolvedTeacherConfig,
  helper: SideCallSpec,
  tracker: StuckTracker,
  task: string,
): Promise<{ result: TaskResult; helperStats: RunStats }> {
  let helperStats = emptyRunStats();
  const onToolResult = async (info: ToolResultInfo): Promise<void | ObserverStop> => {
    // The host's own observer goes first; its stop is its decision, never a trigger.
    let own: void | ObserverStop = undefined;
    try {
      own = await spec.onToolResult?.(info);
    } catch {
      // Ignored, as the runner ignores a throwing observer; the stall watch below still runs.
    }
    if (own) return own;
    const text = info.result.content.map((block) => (block.type === "text" ? block.text : "")).join(" ");
    const signal = tracker.record({ toolName: info.result.toolName, isError: info.result.isError, text });
    if (signal.kind === "ok") return;
    if (signal.kind === "suspected" && config.useStuckMonitor) {
      const verdict = await askMonitor(runner, helper, config, task, tracker.recent());
      helperStats = sumRunStats(helperStats, verdict.stats);
      // An unreadable monitor leaves the tracker's suspicion standing.
      if (verdict.value === false) return;
    }
    const why = `${signal.tool} failed ${signal.consecutive} time(s) in a row, ${signal.cumulative} in this run`;
    return { stop: { code: STUCK_STOP_CODE, message: `stopped as stuck: ${why}` } };
  };
  const result = await runner.runTask({ ...spec, onToolResult });
  return { result, helperStats };
}

/** A budget with its micro-dollar limit lowered to `microUsd`, when that is tighter. */
function tighter(budget: TaskSpec["budget"], microUsd: number | undefined): TaskSpec["budget"] {
  if (microUsd === undefined) return budget;
  return { ...budget, microUsd: Math.min(budget?.microUsd ?? microUsd, microUsd) };
}

/** A host budget covers the student's whole task, so each continuation gets what is left of it. */
function remaining(budget: TaskSpec["budget"], spent: RunStats): TaskSpec["budget"] {
  if (!budget) return undefined;
  const left: NonNullable<TaskSpec["budget"]> = {};
  if (budget.tokens !== undefined) left.tokens = Math.max(0, budget.tokens - spent.tokens);
  if (budget.microUsd !== undefined) left.microUsd = Math.max(0, budget.microUsd - spent.costMicroUsd);
  return left;
}

type Fired = { trigger?: Trigger & { verifyReason?: string }; helperStats: RunStats[]; verdicts: VerdictRecord[] };

/** Provider failures behind a `failed` student that no advice changes: the run ends without a teacher. */
const UNTEACHABLE: ReadonlySet<ErrorKind> = new Set(["auth", "network", "rate_limited", "overloaded"]);

/**
 * Which trigger a student result fires, if any. `stuck` covers our own stop, the runner's loop guard
 * and running out of turns; a stop the host's observer asked for, a park, an abort or a spent budget
 * are the host's business and never escalate; nor does a failure the provider caused (`UNTEACHABLE`).
 */
async function detectTrigger(judge: JudgeContext, result: TaskResult, run: number): Promise<Fired> {
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

async function policyAllows(config: ResolvedTeacherConfig, info: EscalationPolicyInfo): Promise<boolean> {
  if (!config.escalationPolicy) return true;
  try {
    return (await config.escalationPolicy(info)) !== false;
  } catch {
    // Fail open: a broken policy must not strand a student that needs help.
    return true;
  }
}
