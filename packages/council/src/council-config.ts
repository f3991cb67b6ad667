import { CodedError } from "@x/llm-types";
import type { Budget } from "@x/runner";
import { locationMatcher, type FindingMatcher } from "./matcher";
import type { CouncilConfig, CouncilReviewer } from "./types";

/** A council that cannot work as configured: refused before any model is called. */
export class CouncilConfigError extends CodedError<"council_config_invalid"> {
  override readonly name = "CouncilConfigError";
  constructor(message: string) {
    super("council_config_invalid", message);
  }
}

export const MAX_COUNCIL_ROUNDS = 3;

/** The config with defaults filled in and every knob screened. */
export interface CouncilSettings {
  reviewers: readonly CouncilReviewer[];
  maxRounds: number;
  threshold: number;
  matcher: FindingMatcher;
  reviewerTimeoutMs: number;
  budget?: Budget;
}

export function councilSettings(config: CouncilConfig): CouncilSettings {
  const reviewers = config.reviewers ?? [];
  if (reviewers.length === 0) throw new CouncilConfigError("a council needs at least one reviewer");
  const names = new Set<string>();
  for (const reviewer of reviewers) {
    if (typeof reviewer.name !== "string" || reviewer.name.trim() === "")
      throw new CouncilConfigError("every reviewer needs a name");
    if (names.has(reviewer.name)) throw new CouncilConfigError(`two reviewers are named "${reviewer.name}"`);
    names.add(reviewer.name);
  }
  const maxRounds = config.maxRounds ?? 1;
  if (!Number.isInteger(maxRounds) || maxRounds < 0 || maxRounds > MAX_COUNCIL_ROUNDS)
    throw new CouncilConfigError(`maxRounds must be a whole number from 0 to ${MAX_COUNCIL_ROUNDS}, got ${maxRounds}`);
  const threshold = config.threshold ?? 60;
  if (typeof threshold !== "number" || !(threshold >= 0 && threshold <= 100))
    throw new CouncilConfigError(`threshold must be a score from 0 to 100, got ${String(threshold)}`);
  const reviewerTimeoutMs = config.reviewerTimeoutMs ?? 120_000;
  if (!Number.isInteger(reviewerTimeoutMs) || reviewerTimeoutMs <= 0 || reviewerTimeoutMs > 2_147_483_647)
    throw new CouncilConfigError(`reviewerTimeoutMs must be a positive whole number of ms, got ${reviewerTimeoutMs}`);
  return {
    reviewers,
    maxRounds,
    threshold,
    matcher: config.matcher ?? locationMatcher(),
    reviewerTimeoutMs,
    ...(config.budget ? { budget: config.budget } : {}),
  };
}
