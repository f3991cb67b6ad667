import { CodedError } from "@x/llm-types";

export const PARKED_RUN_ERROR_CODES = [
  "invalid_schema",
  "bad_signature",
  "replayed",
  "expired",
  "unknown_tool",
  "in_progress",
  "unknown_outcome",
  "ledger_unavailable",
  "not_top_level",
  "version_unsupported",
] as const;
export type ParkedRunErrorCode = (typeof PARKED_RUN_ERROR_CODES)[number];

/** A park that `resume` refused. Nothing was executed and nothing was consumed. */
export class ParkedRunError extends CodedError<ParkedRunErrorCode> {
  override readonly name = "ParkedRunError";
  constructor(
    code: ParkedRunErrorCode,
    message: string,
    readonly detail: Record<string, unknown> = {},
  ) {
    super(code, message);
  }
}
