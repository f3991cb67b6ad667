import type { TaskResult } from "@x/runner";
import type { TeacherAdvice } from "./advice";

/** What fired an escalation. */
export type EscalationTrigger = "stuck" | "blocked" | "failed" | "verify-fail";

/** One consultation of the teacher. */
export interface EscalationRecord {
  /** 1 for the first escalation of the run. */
  attempt: number;
  trigger: EscalationTrigger;
  teacher: TeacherAdvice;
  /** True when the teacher did the task itself after this advice. */
  tookOver: boolean;
}

/** A human-approval wait inside one of the teacher's runs. */
export interface TeacherReviewGate {
  kind: string;
  waitMs: number;
  decision?: string;
}

/** What the teacher cost, kept apart from the student's `stats`. */
export interface TeacherStats {
  tokens: number;
  /** Teacher runs: each advice request and each takeover. */
  tasks: number;
  costUsd?: number;
  costMicroUsd?: number;
  /** Approval gates met by the teacher's own runs (a takeover that needed a human). */
  humanReview?: { count: number; totalWaitMs: number; gates: TeacherReviewGate[] };
}

/** The student's (or, after a takeover, the teacher's) result, plus the escalation trail. */
export interface TeacherRunResult extends TaskResult {
  /** Empty when the student succeeded alone. */
  escalations: EscalationRecord[];
  /** The teacher's spend. `stats` stays the student's, helper monitor/verifier calls included. */
  teacherStats: TeacherStats;
}
