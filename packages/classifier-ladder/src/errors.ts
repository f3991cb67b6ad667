/**
 * A classifier setting outside its closed set. Thrown while a run is being armed, never during a
 * classification, so a deployment finds its typo before any gated call depends on it.
 */
export class ClassifierConfigError extends Error {
  constructor(
    readonly code:
      | "config.auto_mode_classifier_fallback_invalid"
      | "config.auto_mode_classifier_timeout_invalid"
      | "config.denial_limit_invalid",
    message: string,
    /** The offending value, as received. */
    readonly value: unknown,
  ) {
    super(message);
    this.name = "ClassifierConfigError";
  }
}

/**
 * A classifier call that produced no reply the reader may judge: the provider refused or failed,
 * the request was cancelled, the brain was missing or broke its contract, or the budget ran out.
 * The decider turns it into the next rung, or into `unavailable`.
 */
export class ClassifierLegError extends Error {
  readonly code = "classifier.leg_failed";
  constructor(
    /** `timeout` when the budget (or the provider's own deadline) ran out; `error` otherwise. */
    readonly failure: "timeout" | "error",
    message: string,
    /** The brain's typed cause, when the failure came back as a message. */
    readonly errorKind?: string,
  ) {
    super(message);
    this.name = "ClassifierLegError";
  }
}
