import { randomUUID } from "node:crypto";
import { safeObserve, type Message } from "@x/llm-types";
import type { ObserverStop, Runner, RunStats, TaskResult, TaskSpec, ToolResultInfo } from "@x/runner";
import { formatAdviceForStudent, type TeacherAdvice } from "./advice";
import {
  resolveTeacherConfig,
  type EscalationPolicyInfo,
  type ResolvedTeacherConfig,
  type TeacherConfig,
} from "./config";
import { checkGuards } from "./guards";
import type { EscalationRecord, EscalationTrigger, TeacherRunResult, TeacherStrategies } from "./result";
import { askMonitor, askTeacher, askVerifier, clip, helperSeat, teacherBrief, teacherSeat } from "./seats";
import { emptyRunStats, sumRunStats, toTeacherStats } from "./stats";
import { recallStrategies, rememberStrategy, reportOutcome, withStrategies } from "./strategy-memory";
import { StuckTracker } from "./stuck";
import { canTakeOverInOneCall, runTakeover, takeOverWithAdvice } from "./takeover";

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
 * After `takeoverAfter` failed corrections, or when the teacher asks, the teacher does the task itself.
 */
export async function runWithTeacher(
  runner: Runner,
  studentSpec: TaskSpec,
  teacher?: TeacherConfig,
): Promise<TeacherRunResult> {
  const config = resolveTeacherConfig(teacher);
  const task = studentSpec.objective;
  const recalled = config.injectStrategies ? await recallStrategies(config, task) : [];
  const firstObjective = withStrategies(task, recalled);

  const helper = helperSeat(config, studentSpec);
  const tracker = new StuckTracker({ threshold: config.stuckThreshold, hardOverride: config.stuckHardOverride });
  const escalations: EscalationRecord[] = [];
  let studentStats = emptyRunStats();
  let teacherRunStats = emptyRunStats();
  const session: Message[] = [];
  let objective = firstObjective;
  // The runner keys provider prompt caches by session (else by run): one id keeps every continuation on the same cache.
  const sessionId = studentSpec.sessionId ?? `student-${randomUUID()}`;

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
    };
  };

  for (;;) {
    const spec = {
      ...studentSpec,
      sessionId,
      history: [...(studentSpec.history ?? []), ...session],
      objective,
      budget: remaining(studentSpec.budget, studentStats),
    };
    const run = await runStudent(runner, spec, config, helper, tracker, task);
    studentStats = sumRunStats(studentStats, sumRunStats(run.result.stats, run.helperStats));
    session.push(...run.result.messages);

    const fired = await detectTrigger(runner, config, helper, task, run.result);
    studentStats = fired.helperStats.reduce(sumRunStats, studentStats);
    if (!fired.trigger) return finish(run.result, session, run.result.status === "completed");

    const attempt = escalations.length + 1;
    const refused = checkGuards(
      { escalations: escalations.length, teacherTokens: teacherRunStats.tokens, studentTokens: studentStats.tokens },
      config,
    );
    if (refused) return finish(run.result, session, false);
    const recent = [
      ...tracker.recent(),
      ...(run.result.output.trim() ? [`final answer: ${clip(run.result.output, 500)}`] : []),
    ];
    const info: EscalationPolicyInfo = { trigger: fired.trigger.trigger, attempt, result: run.result, recent };
    if (fired.trigger.verifyReason !== undefined) info.verifyReason = fired.trigger.verifyReason;
    if (!(await policyAllows(config, info))) return finish(run.result, session, false);

    const failure = {
      ...fired.trigger,
      recent: tracker.recent(),
      output: run.result.output,
      earlier: escalations.map((e) => e.teacher),
    };
    const trigger = fired.trigger.trigger;
    const record = (teacher: TeacherAdvice, tookOver: boolean): void => {
      const entry: EscalationRecord = { attempt, trigger, teacher, tookOver };
      escalations.push(entry);
      safeObserve(config.onEscalation, entry);
    };
    // The host's budget is the task's: a takeover, like a continuation, gets only what the student left.
    const takeoverSpec = { ...studentSpec, budget: remaining(studentSpec.budget, studentStats) };
    // Corrections have run out (escalations so far are the failed ones): the teacher takes over instead
    // of correcting again, in one call that also carries its advice.
    if (escalations.length >= config.takeoverAfter && canTakeOverInOneCall(studentSpec)) {
      const takeover = await takeOverWithAdvice(runner, takeoverSpec, config, firstObjective, failure);
      teacherRunStats = sumRunStats(teacherRunStats, takeover.result.stats);
      record(takeover.advice, takeover.reached);
      if (!takeover.reached) return finish(run.result, session, false);
      return finish(takeover.result, [...session, ...takeover.result.messages], takeover.result.status === "completed");
    }

    const asked = await askTeacher(runner, teacherSeat(config), config, teacherBrief({ task, ...failure }));
    teacherRunStats = sumRunStats(teacherRunStats, asked.stats);
    const tookOver = asked.answered && (asked.advice.takeover || escalations.length >= config.takeoverAfter);
    record(asked.advice, tookOver);
    // A teacher that could not be reached has nothing to pass on: the student's result stands.
    if (!asked.answered) return finish(run.result, session, false);

    if (tookOver) {
      const takeover = await runTakeover(runner, takeoverSpec, config, firstObjective, escalations);
      teacherRunStats = sumRunStats(teacherRunStats, takeover.stats);
      return finish(takeover, [...session, ...takeover.messages], takeover.status === "completed");
    }

    // Correction: the advice is appended to the student's own session, which is never rewritten.
    objective = formatAdviceForStudent(asked.advice);
    tracker.resetStreak();
  }
}

/** One student run, with the Tier-0 stuck detector watching its tool results. */
async function runStudent(
  runner: Runner,
  spec: TaskSpec,
  config: ResolvedTeacherConfig,
  helper: ReturnType<typeof helperSeat>,
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

/** A host budget covers the student's whole task, so each continuation gets what is left of it. */
function remaining(budget: TaskSpec["budget"], spent: RunStats): TaskSpec["budget"] {
  if (!budget) return undefined;
  const left: NonNullable<TaskSpec["budget"]> = {};
  if (budget.tokens !== undefined) left.tokens = Math.max(0, budget.tokens - spent.tokens);
  if (budget.microUsd !== undefined) left.microUsd = Math.max(0, budget.microUsd - spent.costMicroUsd);
  return left;
}

/**
 * Which trigger a student result fires, if any. `stuck` covers our own stop, the runner's loop guard
 * and running out of turns; a stop the host's observer asked for, a park, an abort or a spent budget
 * are the host's business and never escalate.
 */
async function detectTrigger(
  runner: Runner,
  config: ResolvedTeacherConfig,
  helper: ReturnType<typeof helperSeat>,
  task: string,
  result: TaskResult,
): Promise<{ trigger?: Trigger & { verifyReason?: string }; helperStats: RunStats[] }> {
  switch (result.status) {
    case "stuck":
      if (result.terminal.code === "observer_stop" && result.terminal.observerCode !== STUCK_STOP_CODE)
        return { helperStats: [] };
      return { trigger: { trigger: "stuck", reason: result.terminal.message }, helperStats: [] };
    case "max_turns":
      return { trigger: { trigger: "stuck", reason: result.terminal.message }, helperStats: [] };
    case "blocked":
      return { trigger: { trigger: "blocked", reason: result.terminal.message }, helperStats: [] };
    case "failed":
      return { trigger: { trigger: "failed", reason: result.terminal.message }, helperStats: [] };
    case "completed": {
      if (!config.verifyOutput) return { helperStats: [] };
      const vote = await askVerifier(runner, helper, config, task, result.output);
      // No readable verdict is no evidence of a wrong answer: the output stands.
      if (vote.pass !== false) return { helperStats: vote.stats };
      const reason = vote.reason ?? `the verifier rejected the answer (${vote.fails} of ${vote.passes + vote.fails})`;
      return { trigger: { trigger: "verify-fail", reason, verifyReason: reason }, helperStats: vote.stats };
    }
    default:
      return { helperStats: [] };
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
