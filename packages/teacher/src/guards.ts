/** Why an escalation was refused by the cost guards. */
export type GuardRefusal = "max_escalations" | "spend_ratio";

export interface GuardState {
  escalations: number;
  teacherTokens: number;
  studentTokens: number;
}

/**
 * The hard cost guards, checked before each escalation: at most `maxEscalations` per run, and none once
 * the teacher has spent more than `teacherSpendRatioCap` × the student's tokens. The first escalation
 * always passes the ratio guard (the teacher has spent nothing yet).
 */
export function checkGuards(
  state: GuardState,
  limits: { maxEscalations: number; teacherSpendRatioCap: number },
): GuardRefusal | undefined {
  if (state.escalations >= limits.maxEscalations) return "max_escalations";
  if (state.teacherTokens > limits.teacherSpendRatioCap * state.studentTokens) return "spend_ratio";
  return undefined;
}
