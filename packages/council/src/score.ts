import type { FindingCluster } from "./merge";

/** A critic's stance on a finding it did not make. */
export interface Stance {
  reviewer: string;
  verdict: "confirm" | "dispute";
  reason: string;
  round: number;
}

export interface FindingScore {
  /** Reviewers who reported it or confirmed it (a finder who later withdrew is not among them). */
  support: string[];
  /** Reviewers who disputed it. */
  disputedBy: string[];
  /** 1 − Π(1 − cᵢ) over the finders' confidences, with each confirmation counting as `confirmWeight`. */
  confidence: number;
  /** 0 to 100: `confidence` × support / (support + disputes). */
  score: number;
}

/** The weight of a critic's confirmation, as if it were a finder of that confidence. */
export const CONFIRM_WEIGHT = 0.6;

/**
 * Scores a finding by support and confidence. Independent finders compound (two reviewers at 0.6
 * give 0.84), a confirmation adds like a finder at 0.6, and every dispute scales the score by the
 * share of reviewers who back the finding — one finder against two disputes keeps a third.
 */
export function scoreFinding(cluster: FindingCluster, stances: readonly Stance[]): FindingScore {
  const latest = new Map<string, Stance>();
  for (const stance of stances) latest.set(stance.reviewer, stance);
  const finders = new Map<string, number>();
  for (const member of cluster.members) {
    const prior = finders.get(member.reviewer) ?? 0;
    finders.set(member.reviewer, Math.max(prior, member.finding.confidence));
  }
  let doubt = 1;
  const support: string[] = [];
  for (const [reviewer, confidence] of finders) {
    if (latest.get(reviewer)?.verdict === "dispute") continue;
    support.push(reviewer);
    doubt *= 1 - confidence;
  }
  const disputedBy: string[] = [];
  for (const [reviewer, stance] of latest) {
    if (stance.verdict === "dispute") disputedBy.push(reviewer);
    else if (!finders.has(reviewer)) {
      support.push(reviewer);
      doubt *= 1 - CONFIRM_WEIGHT;
    }
  }
  const confidence = support.length === 0 ? 0 : 1 - doubt;
  const share = support.length === 0 ? 0 : support.length / (support.length + disputedBy.length);
  return {
    support: support.sort(),
    disputedBy: disputedBy.sort(),
    confidence,
    score: Math.round(100 * confidence * share),
  };
}
