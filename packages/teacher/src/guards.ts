/** Why an escalation was refused by the cost guards. */
export type GuardRefusal = "max_escalations" | "spend_ratio" | "cost_ratio" | "cost_cap";

/**
 * What the guards compare. The student's side is its own runs only: helper (monitor, verifier) calls
 * are extra spend, and counting them would let more verifier votes buy the teacher more room.
 */
export interface GuardState {
  escalations: number;
  teacherTokens: number;
  studentTokens: number;
  teacherMicroUsd: number;
  studentMicroUsd: number;
}

export interface GuardLimits {
  maxEscalations: number;
  teacherSpendRatioCap: number;
  teacherCostRatioCap?: number | undefined;
  teacherMaxMicroUsd?: number | undefined;
}

/**
 * The hard cost guards, checked before each escalation: at most `maxEscalations` per run; none once
 * the teacher has spent more than `teacherSpendRatioCap` × the student's tokens, or (when set) more than
 * `teacherCostRatioCap` × the student's micro-dollars; none once `teacherMaxMicroUsd` is spent. The
 * ratio guards let the first escalation through (the teacher has spent nothing yet).
 */
export function checkGuards(state: GuardState, limits: GuardLimits): GuardRefusal | undefined {
  if (state.escalations >= limits.maxEscalations) return "max_escalations";
  if (state.teacherTokens > limits.teacherSpendRatioCap * state.studentTokens) return "spend_ratio";
  const costRatio = limits.teacherCostRatioCap;
  if (costRatio !== undefined && state.teacherMicroUsd > costRatio * state.studentMicroUsd) return "cost_ratio";
  const cap = limits.teacherMaxMicroUsd;
  if (cap !== undefined && state.teacherMicroUsd >= cap) return "cost_cap";
  return undefined;
}

/** What is left of `teacherMaxMicroUsd` for the teacher's next call, if a cap is set. */
export function teacherAllowance(limits: GuardLimits, teacherMicroUsd: number): number | undefined {
  return limits.teacherMaxMicroUsd === undefined ? undefined : Math.max(0, limits.teacherMaxMicroUsd - teacherMicroUsd);
}
