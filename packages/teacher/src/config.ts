import { z } from "zod";
import { describeIssues, type ModelRef } from "@x/llm-types";
import type { TaskResult } from "@x/runner";
import { ScopeSchema, type StrategyStore } from "@x/strategy-store-core";
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

/** How teacher mode behaves. Every field is optional; the defaults are listed on each. */
export interface TeacherConfig {
  /** The teacher. Default: the runner's `advisor` role. */
  model?: ModelRef;
  /** The cheap model for the stuck monitor and the verifier. Default: the student's own model. */
  helperModel?: ModelRef;
  /** Escalations allowed per run. Default 3. */
  maxEscalations?: number;
  /** No further escalation once teacher tokens exceed this fraction of student tokens. Default 0.4. */
  teacherSpendRatioCap?: number;
  /** Failures of one tool in a row that make a suspected stall. Default 3. */
  stuckThreshold?: number;
  /** Failures of one tool in the run that force escalation, monitor or not. Default 5. */
  stuckHardOverride?: number;
  /** Ask the helper model whether a suspected stall is real before escalating. Default true. */
  useStuckMonitor?: boolean;
  /** Judge a completed student output with the helper model's rubric verifier. Default true. */
  verifyOutput?: boolean;
  /** Failed corrections after which the teacher does the task itself. Default 2. */
  takeoverAfter?: number;
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

const count = (min: number) => z.number().int().min(min);
const OptionsSchema = z.object({
  maxEscalations: count(0).optional(),
  teacherSpendRatioCap: z.number().min(0).optional(),
  stuckThreshold: count(1).optional(),
  stuckHardOverride: count(1).optional(),
  takeoverAfter: count(0).optional(),
  verifierSamples: count(1).max(15).optional(),
  retrieveK: count(1).max(50).optional(),
  minConfidenceToStore: z.number().min(0).max(3).optional(),
  scope: ScopeSchema.optional(),
});

/** The config with every default filled in; what the cascade reads. */
export type ResolvedTeacherConfig = Omit<TeacherConfig, keyof typeof TEACHER_DEFAULTS> & {
  -readonly [K in keyof typeof TEACHER_DEFAULTS]: (typeof TEACHER_DEFAULTS)[K] extends boolean ? boolean : number;
};

/** Fills the defaults; throws `teacher.config_invalid` naming the field for a number out of range. */
export function resolveTeacherConfig(config: TeacherConfig = {}): ResolvedTeacherConfig {
  const parsed = OptionsSchema.safeParse(config);
  if (!parsed.success) {
    const detail = describeIssues(parsed.error)
      .map((i) => `${i.path}: ${i.message}`)
      .join("; ");
    throw new TeacherError("teacher.config_invalid", `invalid teacher config: ${detail}`);
  }
  // An option passed as `undefined` means "not given", so it must not overwrite its default.
  const defined: Partial<TeacherConfig> = Object.fromEntries(Object.entries(config).filter(([, v]) => v !== undefined));
  return { ...TEACHER_DEFAULTS, ...defined };
}
