export {
  EVAL_LABELS,
  EvalCaseSchema,
  EvalDatasetSchema,
  EvalStepSchema,
  type EvalCase,
  type EvalCaseInput,
  type EvalDataset,
  type EvalLabel,
  type EvalStep,
} from "./case";
export { caseInput } from "./case-transcript";
export { parseDataset, parseRecording } from "./datasets";
export { EVAL_ERROR_CODES, EvalError, type EvalErrorCode } from "./errors";
export { type CaseResult } from "./case-result";
export { evaluateAutoMode, type EvaluateOptions } from "./evaluate";
export {
  RECORDING_KIND,
  RecordedCaseSchema,
  RecordingSchema,
  recordingBrain,
  replayBrain,
  type RecordedCase,
  type Recording,
} from "./recording";
export { formatReport, summarise, type ErrorRates, type EvalReport, type Spread } from "./report";
export { wilson, type Proportion } from "./wilson";
