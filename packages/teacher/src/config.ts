import { describeIssues, issuesLine, withoutUndefined, type ModelRef } from "@x/llm-types";
import type { RunStats, TaskResult, TaskSpec } from "@x/runner";
import type { StrategyStore } from "@x/strategy-store-core";
import { ignoredCombinations, TeacherConfigSchema, type TAKEOVER_BRIEFS } from "./config-schema";
import type { EscalationRecord, EscalationTrigger } from "./result";
import { TeacherError } from "./errors";

/** What an {@link TeacherConfig.escalationPolicy} is shown before an escalation. */
export interface EscalationPolicyInfo {
  trigger: EscalationTrigger;
  /** 1 for the first escalation of the run. */
  attempt: number;
  /** The student's result that fired the trigger (unresolved). */
  result: TaskResult;
  /** The student's recent tool results and output, newest last. */
  recent: string[];
  /** The verifier's reason, for a `verify-fail`. */
  verifyReason?: string;
}

/** What a host's {@link TeacherConfig.verify} function is shown: a completed student output. */
export interface VerifyInput {
  /** The host's objective, as given (without recalled strategies). */
  task: string;
  /** The student's final answer. */
  output: string;
  /** The student's whole result (messages, structured output, stats). */
  result: TaskResult;
  /** 1 for the student's first run, 2 after the first correction, … (a takeover: the last student run's). */
  run: number;
  /** Whose answer it is: the student's, or the teacher's after it took the task over. */
  of: "student" | "takeover";
}

/**
 * What a `verify` that called a model spent: a runner result's `stats` as they are, or bare counts.
 * It is billed in the student's `stats` (with the helper's calls) and in the verdict's record.
 */
export type VerifyUsage = RunStats | { tokens: number; costMicroUsd: number; modelCalls?: number };

/**
 * A host verdict: `true` / `false` (or `{ pass, reason }`) decides and no rubric call is made;
 * `undefined` (or an object without `pass`) means "cannot tell" and hands the output to the rubric
 * verifier when `verifyOutput` is on. A check that called a model says what it spent in `usage`.
 */
export type VerifyVerdict = boolean | { pass?: boolean; reason?: string; usage?: VerifyUsage } | undefined;

/** What a takeover is told about the student's failure: its attempts, only why it was flagged, or nothing. */
export type TakeoverBrief = (typeof TAKEOVER_BRIEFS)[number];

/** How teacher mode behaves. Every field is optional; the defaults are listed on each. */
export interface TeacherConfig {
  /** The teacher. Default: the runner's `advisor` role. */
  model?: ModelRef;
  /** The cheap model for the stuck monitor and the verifier. Default: the student's own model. */
  helperModel?: ModelRef;
  /** Escalations allowed per run. Default 3. */
  maxEscalations?: number;
  /**
   * No further escalation once teacher tokens exceed this fraction of the student's own tokens (its
   * runs; helper monitor/verifier calls do not raise the allowance). Default 0.4.
   */
  teacherSpendRatioCap?: number;
  /**
   * Added here (the seed is silent): the same guard in money — no further escalation once the teacher's
   * micro-dollars exceed this fraction of the student's own. Default: off.
   */
  teacherCostRatioCap?: number;
  /**
   * Added here: the most the teacher may cost in one run, in micro-dollars. No escalation once it is
   * spent, and each teacher call or takeover runs on what is left of it. Default: no cap.
   */
  teacherMaxMicroUsd?: number;
  /** Failures of one tool in a row that make a suspected stall. Default 3. */
  stuckThreshold?: number;
  /** Failures of one tool in the run that force escalation, monitor or not. Default 5. */
  stuckHardOverride?: number;
  /** Ask the helper model whether a suspected stall is real before escalating. Default true. */
  useStuckMonitor?: boolean;
  /** Judge a completed student output with the helper model's rubric verifier. Default true. */
  verifyOutput?: boolean;
  /**
   * Added here: the host's own check of a completed output (tests, an exact answer, a schema), sync or
   * async, run before the rubric. A decided verdict replaces the rubric call; `undefined` defers to the
   * rubric. A throw counts as `undefined` and is recorded. What it reports in `usage` is billed. A
   * takeover's answer is checked by it too (never by the rubric): one that fails ends the run
   * `failed` (`output_invalid`). Shipped checks: `numericAnswerChecks`, `secondOpinion`, `verifyInOrder`.
   * Default: none.
   */
  verify?: (input: VerifyInput) => VerifyVerdict | Promise<VerifyVerdict>;
  /**
   * Failed corrections after which the teacher does the task itself. Default 2; for a one-shot task
   * (see `oneShot`) 0: a single answer cannot act on a correction, so the teacher answers at once.
   */
  takeoverAfter?: number;
  /**
   * Added here: the task is one answer with no tools, so a correction has nothing to act on. Default:
   * true when the student's spec has no tools. It only changes the defaults of `takeoverAfter` (0) and
   * `takeoverBrief` (`none`).
   */
  oneShot?: boolean;
  /**
   * Added here: what a takeover is shown about the failure — `full` (why it was flagged, the student's
   * tool results and answer, earlier advice), `short` (why it was flagged), `none` (the task as a plain
   * teacher call would see it). Default: `none` for a one-shot task, `full` otherwise.
   */
  takeoverBrief?: TakeoverBrief;
  /**
   * Added here: a takeover decided before the teacher is asked ends its answer with the advice block
   * (cut off before the host sees the answer) so there is a strategy to keep. Default: true only when
   * strategy memory is on (`strategyStore` and `scope`); set it for an `onEscalation` listener that
   * wants the takeover's strategy.
   */
  takeoverAdvice?: boolean;
  /**
   * Replacement instruction texts. Each must still ask for the JSON fields its reader parses. `teacher`
   * is the advice ask's; a takeover decided before asking runs on `TAKEOVER_PROMPT` instead.
   */
  prompts?: { teacher?: string; verifier?: string; monitor?: string };
  /** Called after each escalation. A throw is ignored. */
  onEscalation?: (e: EscalationRecord) => void;
  /**
   * Last word before the teacher is consulted (after a trigger fired and the guards passed): `false`
   * skips the escalation and the unresolved result is returned. A throw or rejection escalates — a
   * broken policy must not strand the student. Not timed out here: wrap your own deadline if needed.
   */
  escalationPolicy?: (info: EscalationPolicyInfo) => boolean | Promise<boolean>;
  /** Verifier samples per completed output; with 2 or more they vote by majority. Default 1. */
  verifierSamples?: number;
  /** Where taught strategies are kept and found. Used only together with `scope`. */
  strategyStore?: StrategyStore;
  /** The tenant wall for `strategyStore`; without it the store is not touched. */
  scope?: string;
  /** Strategies retrieved into the objective. Default 3. */
  retrieveK?: number;
  /** Lowest teacher confidence (0..3) whose strategy is stored. Default 2. */
  minConfidenceToStore?: number;
  /** Put retrieved strategies into the objective. Default true (when a store and scope are set). */
  injectStrategies?: boolean;
}

/** The seed's defaults. */
export const TEACHER_DEFAULTS = {
  maxEscalations: 3,
  teacherSpendRatioCap: 0.4,
  stuckThreshold: 3,
  stuckHardOverride: 5,
  useStuckMonitor: true,
  verifyOutput: true,
  takeoverAfter: 2,
  verifierSamples: 1,
  retrieveK: 3,
  minConfidenceToStore: 2,
  injectStrategies: true,
} as const;

/** Where a one-shot task's defaults differ from {@link TEACHER_DEFAULTS} (multi-turn tool runs keep those). */
export const ONE_SHOT_DEFAULTS = { takeoverAfter: 0, takeoverBrief: "none" } as const;

/** The config with every default filled in; what the cascade reads. */
export type ResolvedTeacherConfig = Omit<
  TeacherConfig,
  keyof typeof TEACHER_DEFAULTS | "oneShot" | "takeoverBrief" | "takeoverAdvice"
> & {
  -readonly [K in keyof typeof TEACHER_DEFAULTS]: (typeof TEACHER_DEFAULTS)[K] extends boolean ? boolean : number;
} & { oneShot: boolean; takeoverBrief: TakeoverBrief; takeoverAdvice: boolean };

/**
 * Fills the defaults; the one-shot ones follow from `task` (no tools ⇒ one-shot). Throws
 * `teacher.config_invalid` naming the field for an unknown option, a value out of range, or an option
 * that this combination would ignore.
 */
export function resolveTeacherConfig(
  config: TeacherConfig = {},
  task: Pick<TaskSpec, "tools"> = {},
): ResolvedTeacherConfig {
  const defined = withoutUndefined(config);
  const parsed = TeacherConfigSchema.safeParse(defined);
  const issues = parsed.success ? ignoredCombinations(parsed.data) : describeIssues(parsed.error);
  if (issues.length > 0) {
    throw new TeacherError("teacher.config_invalid", `invalid teacher config: ${issuesLine(issues)}`);
  }
  const oneShot = defined.oneShot ?? (task.tools?.length ?? 0) === 0;
  const shape = oneShot
    ? ONE_SHOT_DEFAULTS
    : { takeoverAfter: TEACHER_DEFAULTS.takeoverAfter, takeoverBrief: "full" as const };
  const memory = defined.strategyStore !== undefined && defined.scope !== undefined;
  return { ...TEACHER_DEFAULTS, ...shape, takeoverAdvice: memory, ...defined, oneShot };
}
