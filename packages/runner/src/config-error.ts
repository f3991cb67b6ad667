/** A runner setting that cannot work, refused when the runner is created rather than at the first park. */
export class RunnerConfigError extends Error {
  constructor(
    readonly code:
      | "config.park_key_invalid"
      | "config.park_ttl_invalid"
      | "config.retry_invalid"
      | "config.auto_mode_invalid"
      | "config.compaction_invalid"
      | "config.sub_runs_invalid"
      | "config.auto_mode_classifier_fallback_invalid",
    message: string,
  ) {
    super(message);
    this.name = "RunnerConfigError";
  }
}
