import { CodedError } from "@x/llm-types";

/** The evaluation's typed failures: a stable `code` a caller can branch on. */
export const EVAL_ERROR_CODES = [
  "eval.no_cases",
  "eval.no_model",
  "eval.no_brain",
  "eval.replay_mismatch",
  "eval.dataset_invalid",
  "eval.recording_invalid",
] as const;
export type EvalErrorCode = (typeof EVAL_ERROR_CODES)[number];

export class EvalError extends CodedError<EvalErrorCode> {
  override readonly name = "EvalError";
}
