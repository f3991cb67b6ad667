import { CodedError } from "@x/llm-types";

/** A runner setting that cannot work, refused when the runner is created rather than at the first park. */
export class RunnerConfigError extends CodedError<
  | "config.park_key_invalid"
  | "config.park_ttl_invalid"
  | "config.park_ledger_required"
  | "config.retry_invalid"
  | "config.auto_mode_invalid"
  | "config.compaction_invalid"
  | "config.sub_runs_invalid"
  | "config.auto_mode_classifier_fallback_invalid"
  | "config.no_brain"
> {
  override readonly name = "RunnerConfigError";
}
