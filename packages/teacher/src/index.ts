export { runWithTeacher } from "./run-with-teacher";
export { STUCK_STOP_CODE } from "./student-run";
export {
  teacherTask,
  type TeacherTask,
  type TeacherTaskInfo,
  type TeacherTaskOptions,
  type TeacherTaskTake,
} from "./teacher-task";
export { TEACHER_STATE_VERSION } from "./teacher-state";
export { parseTeacherAdvice } from "./advice";
export type { TeacherAdvice } from "./advice";
export { TEACHER_PROMPT, VERIFIER_PROMPT, MONITOR_PROMPT, TAKEOVER_PROMPT, TAKEOVER_ADVICE_PROMPT } from "./prompts";
export { TEACHER_DEFAULTS, ONE_SHOT_DEFAULTS, resolveTeacherConfig } from "./config";
export type {
  TeacherConfig,
  EscalationPolicyInfo,
  VerifyInput,
  VerifyVerdict,
  VerifyUsage,
  TakeoverBrief,
} from "./config";
export type {
  EscalationRecord,
  EscalationTrigger,
  TeacherRunResult,
  TeacherStats,
  TeacherReviewGate,
  TeacherStrategies,
  RecalledStrategy,
  StoredStrategy,
  VerdictRecord,
} from "./result";
export { TeacherError } from "./errors";
export type { TeacherErrorCode } from "./errors";
export { numericAnswerChecks, NUMERIC_CHECKS, DEFAULT_NUMERIC_CHECKS } from "./numeric-answer-checks";
export type { NumericCheck, NumericAnswerChecksOptions } from "./numeric-answer-checks";
export { secondOpinion } from "./second-opinion";
export type { SecondOpinionOptions } from "./second-opinion";
export { sameNumber, sameText, sameParsed } from "./answer-compare";
export type { AnswerCompare } from "./answer-compare";
export { verifyInOrder } from "./verify-in-order";
export { finalNumber } from "./final-answer";
