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

/** One verdict on a completed student output, from the host's `verify` or the rubric verifier. */
export interface VerdictRecord {
  /** Which student run's output was judged: 1 for the first, 2 after the first correction, … */
  run: number;
  /** `takeover`: the teacher's answer after it took the task over (`run` is then the last student run's). */
  of?: "takeover";
  /** `code`: the host's `verify` function; `rubric`: the verifier model, on the helper's side call. */
  by: "code" | "rubric";
  /** Absent when nothing was decided (the check deferred or broke; no readable rubric sample). */
  pass?: boolean;
  reason?: string;
  /** Rubric samples asked; 0 for a check in code. */
  samples: number;
  /** What the verdict cost: 0 for a check in code that called no model (else what its `usage` said). */
  tokens: number;
  costMicroUsd: number;
  /** Why a check in code gave no verdict: it threw, or returned something that is not one. */
  error?: string;
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

/** A strategy retrieved from the store and put ahead of the student's objective. */
export interface RecalledStrategy {
  id: string;
  /** The store's relevance score for this objective. */
  score: number;
  strategy: string;
}

/** The strategy a run stored after its success (as the store saved it). */
export interface StoredStrategy {
  id: string;
  strategy: string;
  /** The teacher's confidence in it, 1–3. */
  confidence: number;
}

/** What the run did with strategy memory. */
export interface TeacherStrategies {
  /** Best first; empty when memory is off, `injectStrategies` is false, nothing matched or the store failed. */
  recalled: RecalledStrategy[];
  /**
   * Absent when nothing was stored: no success after an escalation, too little confidence, no memory,
   * or a failed write.
   */
  stored?: StoredStrategy;
}

/** The student's (or, after a takeover, the teacher's) result, plus the escalation trail. */
export interface TeacherRunResult extends TaskResult {
  /** Empty when the student succeeded alone. */
  escalations: EscalationRecord[];
  /** The teacher's spend. `stats` stays the student's, helper monitor/verifier calls included. */
  teacherStats: TeacherStats;
  /** Which strategies were retrieved for this run and which one it stored. */
  strategies: TeacherStrategies;
  /** Added here: every verdict on a completed output, in order (code checks included, at zero tokens). */
  verdicts: VerdictRecord[];
}
