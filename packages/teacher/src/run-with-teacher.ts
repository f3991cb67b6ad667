import { randomUUID } from "node:crypto";
import { z } from "zod/v4";
import { safeObserve, type Message, type MessageProvenance } from "@x/llm-types";
import type { StrategyHit } from "@x/strategy-store-core";
import { emptyRunStats, sumRunStats, type Runner, type RunStats, type TaskResult, type TaskSpec } from "@x/runner";
import { formatAdviceForStudent, type TeacherAdvice } from "./advice";
import {
  resolveTeacherConfig,
  type EscalationPolicyInfo,
  type ResolvedTeacherConfig,
  type TeacherConfig,
} from "./config";
import { checkGuards, teacherAllowance } from "./guards";
import { judgeTakeover, type JudgeContext, type Judgement } from "./judge";
import type { EscalationRecord, StoredStrategy, TeacherRunResult, TeacherStrategies, VerdictRecord } from "./result";
import { askTeacher, clip, helperCall, teacherBrief, teacherCall } from "./side-calls";
import { toTeacherStats } from "./stats";
import {
  recallStrategies,
  rememberStrategy,
  reportOutcome,
  strategiesProvenance,
  withStrategies,
} from "./strategy-memory";
import { StuckTracker, type StuckSnapshot } from "./stuck";
import {
  AdviceStepSchema,
  FiredSchema,
  HitsSchema,
  JudgementSchema,
  reader,
  StoredStepSchema,
  StudentStepSchema,
  TakeoverStepSchema,
  TaskResultSchema,
  TeacherJournal,
} from "./teacher-journal";
import { canTakeOverInOneCall, runTakeover, takeOverAtOnce } from "./takeover";
import { remaining, tighter } from "./budget-left";
import { runStudent, textOf } from "./student-run";
import { detectTrigger, type Fired } from "./trigger";

type StudentStep = { result: TaskResult; helperStats: RunStats; tracker: StuckSnapshot };
type TakeoverAtOnce = Awaited<ReturnType<typeof takeOverAtOnce>>;
type Asked = Awaited<ReturnType<typeof askTeacher>>;

/**
 * Runs `studentSpec` on the cheap student and consults the teacher only when the student is
 * detectably stuck or wrong: a stall in its tool results (Tier 0), a failing rubric verdict on its
 * completed output (Tier 1), or a `blocked` / `failed` end. The teacher answers in a session of its
 * own; only its advice, as one appended user message, enters the student's session, so every request
 * the student makes after it extends the previous one (the provider's prompt cache keeps working).
 * After `takeoverAfter` failed corrections, or when the teacher asks, the teacher does the task itself;
 * its answer is checked by the host's `verify` as the student's is, and one that fails ends `failed`.
 */
export function runWithTeacher(
  runner: Runner,
  studentSpec: TaskSpec,
  teacher?: TeacherConfig,
): Promise<TeacherRunResult> {
  // The runner keys provider prompt caches by session (else by run): one id keeps every continuation
  // on the same cache, and the teacher's and helper's calls each on one of their own.
  const journal = new TeacherJournal(studentSpec.sessionId ?? `student-${randomUUID()}`);
  return teacherLoop(runner, studentSpec, teacher, { journal });
}

/**
 * How the loop runs: its journal (recorded steps, replayed by a retake), and for a queued task the
 * queue's checkpointed runs of the student and the takeover (`taskId` names them).
 */
export interface TeacherLoopHost {
  journal: TeacherJournal;
  taskId?: string;
  runStep?: (spec: TaskSpec & { runId: string }, options?: RunStepHooks) => Promise<TaskResult>;
}

/** What a checkpointed run tells the loop when it goes on from a checkpoint or a park. */
export interface RunStepHooks {
  onRestore?: (messages: readonly Message[]) => void;
}

/** {@link runWithTeacher}'s loop, with every step that acts on the world recorded in `host.journal`. */
export async function teacherLoop(
  runner: Runner,
  studentSpec: TaskSpec,
  teacher: TeacherConfig | undefined,
  host: TeacherLoopHost,
): Promise<TeacherRunResult> {
  const { journal } = host;
  const config = resolveTeacherConfig(teacher, studentSpec);
  const task = studentSpec.objective;
  const recalled = config.injectStrategies
    ? (await journal.step("recall", reader<StrategyHit[]>(HitsSchema, "recall"), () => recallStrategies(config, task)))
        .value
    : [];
  const firstObjective = withStrategies(task, recalled);
  const sessionId = journal.sessionId;
  // A queued task's student runs and takeover run checkpointed by the queue, under ids of their own
  // (so their idempotency keys hold across takes); a plain call runs them on the runner.
  const durableRun = (runId: string, hooks?: RunStepHooks) => (spec: TaskSpec) =>
    host.runStep && host.taskId !== undefined
      ? host.runStep({ ...spec, runId: `${host.taskId}:${runId}` }, hooks)
      : runner.runTask(spec);
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
    // Recorded, so a retake stores nothing twice (a put of the same strategy merges in any case).
    const kept = await journal.step(
      "stored",
      reader<{ stored?: StoredStrategy }>(StoredStepSchema, "stored"),
      async () => {
        const stored = resolved ? await rememberStrategy(config, task, escalations.at(-1)) : undefined;
        return stored ? { stored } : {};
      },
    );
    const stored = kept.value.stored;
    await journal.step("outcome", reader<boolean>(z.boolean(), "outcome"), async () => {
      await reportOutcome(config, recalled, resolved);
      return true;
    });
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
    const read = reader<Judgement>(JudgementSchema, "the takeover's verdict");
    const { value: judged } = await journal.step(`settle:${run}`, read, () => judgeTakeover(judge, takeover, run));
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

  const unfinished = (result: TaskResult) =>
    journal.durable && (result.status === "parked" || result.status === "aborted");
  // Parked (or aborted) inside a queued task: the task parks, and its resume goes on from this run
  // with the escalation state as recorded — nothing is settled or learned yet.
  const paused = (result: TaskResult, messages: Message[], stats: RunStats, teacherSpent: RunStats) => ({
    ...result,
    messages,
    stats,
    escalations,
    teacherStats: toTeacherStats(teacherSpent),
    strategies: {
      recalled: recalled.map(({ record, score }) => ({ id: record.id, score, strategy: record.strategy })),
    },
    verdicts,
  });

  // A student run: recorded once it ends (its tracker counts with it), so a retake replays it; one in
  // flight when a worker died goes on from its checkpoint, the tracker fed the tool results it holds.
  const studentStep = async (run: number, spec: TaskSpec): Promise<StudentStep> => {
    const recorded = journal.replay(`student:${run}`, reader<StudentStep>(StudentStepSchema, "a student run"));
    if (recorded) {
      tracker.restore(recorded.tracker);
      return recorded;
    }
    const onRestore = (messages: readonly Message[]) => {
      for (const m of messages) {
        if (m.role === "toolResult") tracker.record({ toolName: m.toolName, isError: m.isError, text: textOf(m) });
      }
    };
    const monitor = { spent: journal.liveStats(run), onSpent: (stats: RunStats) => journal.saveLive(run, stats) };
    const studentRun = durableRun(`student-${run}`, { onRestore });
    const out = await runStudent(runner, studentRun, spec, config, helper, tracker, task, monitor);
    const step = { ...out, tracker: tracker.snapshot() };
    // A parked run is not over: its resume goes on from the park, not from a record. Nor is one the
    // worker aborted (stopping, or its lease lost): the next take goes on from its checkpoint.
    if (unfinished(out.result)) return step;
    return journal.record(`student:${run}`, step);
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
    const student = await studentStep(run, spec);
    if (unfinished(student.result)) {
      const stats = sumRunStats(studentStats, sumRunStats(student.result.stats, student.helperStats));
      return paused(student.result, [...session, ...student.result.messages], stats, teacherRunStats);
    }
    ownStats = sumRunStats(ownStats, student.result.stats);
    studentStats = sumRunStats(studentStats, sumRunStats(student.result.stats, student.helperStats));
    session.push(...student.result.messages);

    const { value: fired } = await journal.step(`judge:${run}`, reader<Fired>(FiredSchema, "a verdict"), () =>
      detectTrigger(judge, student.result, run),
    );
    studentStats = fired.helperStats.reduce(sumRunStats, studentStats);
    verdicts.push(...fired.verdicts);
    if (!fired.trigger) return finish(student.result, session, student.result.status === "completed");
    // No help came (a guard, the policy, an unreachable teacher): a student answer the host's verify
    // rejected is still no success — it ends unresolved, never `completed`.
    const unhelped = (why: string) => finish(unverified(student.result, fired.trigger!, why), session, false);

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
    if (refused) return unhelped(`the teacher was not consulted (${refused})`);
    const recent = [
      ...tracker.recent(),
      ...(student.result.output.trim() ? [`final answer: ${clip(student.result.output, 500)}`] : []),
    ];
    const info: EscalationPolicyInfo = { trigger: fired.trigger.trigger, attempt, result: student.result, recent };
    if (fired.trigger.verifyReason !== undefined) info.verifyReason = fired.trigger.verifyReason;
    const policy = await journal.step(`policy:${run}`, reader<boolean>(z.boolean(), "a policy answer"), () =>
      policyAllows(config, info),
    );
    if (!policy.value) return unhelped("the escalation policy declined to consult the teacher");

    const failure = {
      ...fired.trigger,
      recent: tracker.recent(),
      output: student.result.output,
      earlier: escalations.map((e) => e.teacher),
    };
    const trigger = fired.trigger.trigger;
    // A listener hears of an escalation once, when it happens: never again from a retake's replay.
    const record = (teacher: TeacherAdvice, tookOver: boolean, replayed: boolean): void => {
      const entry: EscalationRecord = { attempt, trigger, teacher, tookOver };
      escalations.push(entry);
      if (!replayed) safeObserve(config.onEscalation, entry);
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
      const read = reader<TakeoverAtOnce>(TakeoverStepSchema, "a takeover");
      const step = await journal.step(
        `takeover:${run}`,
        read,
        () =>
          takeOverAtOnce(
            durableRun("takeover"),
            takeoverSpec,
            config,
            teacherAt,
            firstObjective,
            failure,
            config.takeoverAdvice,
          ),
        (value) => !unfinished(value.result),
      );
      const takeover = step.value;
      if (unfinished(takeover.result)) {
        const spent = sumRunStats(teacherRunStats, takeover.result.stats);
        return paused(takeover.result, [...session, ...takeover.result.messages], studentStats, spent);
      }
      teacherRunStats = sumRunStats(teacherRunStats, takeover.result.stats);
      record(takeover.advice, takeover.reached, step.replayed);
      if (!takeover.reached) return unhelped("the teacher could not be reached to take over");
      return settle(takeover.result, run);
    }

    const brief = teacherBrief({ task, ...failure });
    const readAdvice = reader<Asked>(AdviceStepSchema, "an advice");
    const askedStep = await journal.step(`advice:${run}`, readAdvice, () =>
      askTeacher(runner, teacherAt, config, brief, teacherBudget),
    );
    const asked = askedStep.value;
    teacherRunStats = sumRunStats(teacherRunStats, asked.stats);
    const allowanceLeft = teacherAllowance(config, teacherRunStats.costMicroUsd);
    const wantsTakeover = asked.advice.takeover || decided;
    // The advice used up `teacherMaxMicroUsd`: like the guard before an escalation, that refuses the takeover.
    const tookOver = asked.answered && wantsTakeover && allowanceLeft !== 0;
    record(asked.advice, tookOver, askedStep.replayed);
    // A teacher that could not be reached has nothing to pass on: the student's result stands.
    if (!asked.answered || (wantsTakeover && !tookOver))
      return unhelped(
        asked.answered ? "the teacher's allowance was spent before a takeover" : "the teacher could not be reached",
      );

    if (tookOver) {
      const spec = { ...studentSpec, budget: tighter(remaining(studentSpec.budget, studentStats), allowanceLeft) };
      const read = reader<{ result: TaskResult }>(z.strictObject({ result: TaskResultSchema }), "a takeover");
      const { value } = await journal.step(
        `takeover:${run}`,
        read,
        async () => ({
          result: await runTakeover(
            durableRun("takeover"),
            spec,
            config,
            teacherAt,
            firstObjective,
            failure,
            escalations,
          ),
        }),
        (taken) => !unfinished(taken.result),
      );
      const takeover = value.result;
      if (unfinished(takeover)) {
        const spent = sumRunStats(teacherRunStats, takeover.stats);
        return paused(takeover, [...session, ...takeover.messages], studentStats, spent);
      }
      teacherRunStats = sumRunStats(teacherRunStats, takeover.stats);
      return settle(takeover, run);
    }

    // Correction: the advice is appended to the student's own session, which is never rewritten.
    objective = formatAdviceForStudent(asked.advice);
    objectiveProvenance = "teacher";
    tracker.resetStreak();
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

/**
 * The student's result as the run ends with no help: unchanged, unless the host's verify rejected a
 * completed answer — then `failed` / `output_invalid`, the verify's reason and why no help came.
 */
function unverified(result: TaskResult, trigger: NonNullable<Fired["trigger"]>, why: string): TaskResult {
  if (trigger.trigger !== "verify-fail" || result.status !== "completed") return result;
  const reason = trigger.verifyReason ?? "the host's check rejected the answer";
  const message = `the student's answer failed the host's verify (${reason}) and ${why}`;
  return { ...result, status: "failed", terminal: { code: "output_invalid", cause: "output", message } };
}
