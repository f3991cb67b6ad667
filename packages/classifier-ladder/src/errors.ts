import { CodedError } from "@x/llm-types";

/** The settings a {@link ClassifierConfigError} can name: a closed set a host can branch on. */
export const CLASSIFIER_CONFIG_ERROR_CODES = [
  "config.auto_mode_classifier_fallback_invalid",
  "config.auto_mode_classifier_timeout_invalid",
  "config.denial_limit_invalid",
] as const;
export type ClassifierConfigErrorCode = (typeof CLASSIFIER_CONFIG_ERROR_CODES)[number];

/**
 * A classifier setting outside its closed set. Thrown while a run is being armed, never during a
 * classification, so a deployment finds its typo before any gated call depends on it.
 */
export class ClassifierConfigError extends CodedError<ClassifierConfigErrorCode> {
  override readonly name = "ClassifierConfigError";
  constructor(
    code: ClassifierConfigErrorCode,
    message: string,
    /** The offending value, as received. */
    readonly value: unknown,
  ) {
    super(code, message);
  }
}

/**
 * A classifier call that produced no reply the reader may judge: the provider refused or failed,
 * the request was cancelled, the brain was missing or broke its contract, or the budget ran out.
 * The decider turns it into the next rung, or into `unavailable`.
 */
export class ClassifierLegError extends CodedError<"classifier.leg_failed"> {
  override readonly name = "ClassifierLegError";
  constructor(
    /** `timeout` when the budget (or the provider's own deadline) ran out; `error` otherwise. */
    readonly failure: "timeout" | "error",
    message: string,
    /** The brain's typed cause, when the failure came back as a message. */
    readonly errorKind?: string,
  ) {
    super("classifier.leg_failed", message);
  }
}
