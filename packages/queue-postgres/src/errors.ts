import { CodedError } from "@x/llm-types";

export const QUEUE_ERROR_CODES = [
  "invalid_spec",
  "not_found",
  "not_parked",
  "park_changed",
  "not_unknown_outcome",
  "scope_refused",
] as const;
export type QueueErrorCode = (typeof QUEUE_ERROR_CODES)[number];

/** A queue call refused: nothing was written. */
export class QueueError extends CodedError<QueueErrorCode> {
  override readonly name = "QueueError";
}
