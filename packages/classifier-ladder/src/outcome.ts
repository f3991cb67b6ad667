import type { Usage } from "@x/llm-types";

/** Why a classification could not rule: its budget ran out, or every rung failed otherwise. */
export type AutoModeUnavailableCause = "timeout" | "error";

export type AutoModeVerdict =
  | { verdict: "allow" }
  | { verdict: "block"; reason: string }
  | { verdict: "unavailable"; cause: AutoModeUnavailableCause; error?: string }
  | { verdict: "parse_error"; form: "missing" | "conflict" };

/** The ladder's record: the classification left its first rung for the next one. */
export interface AutoModeFallback {
  from: string;
  to: string;
  cause: AutoModeUnavailableCause;
}

export type AutoModeOutcome = AutoModeVerdict & {
  /** The model the classification ran on (the last rung asked). */
  model: string;
  fallback?: AutoModeFallback;
  /** Model calls made, over every rung and re-ask. */
  calls: number;
  usage: Usage;
  wallMs: number;
  /** The ruling rung's first reply carried no verdict and was asked again on the think seat. */
  reasked: boolean;
};

/** What a classification round reports to its observer: the outcome and the call it judged. */
export type AutoModeClassified = AutoModeOutcome & { toolName: string; toolCallId: string };
