import {
  runCouncil,
  type CouncilConfig,
  type CouncilFinding,
  type CouncilResult,
  type CouncilReviewer,
  type CouncilTask,
} from "@x/council";
import type { Runner } from "@x/runner";
import type { AppEvent, FindingRow, ReviewerRow } from "./render/events";
import { councilSummary } from "./summary";

/** The score (0–100) a finding needs for the CLI to report it. */
export const REVIEW_THRESHOLD = 60;

/** The CLI's council: three lenses, each its own reviewer (the demo gives each its own model). */
export const REVIEW_LENSES: ReadonlyArray<{ name: string; lens: string }> = [
  { name: "security", lens: "security" },
  { name: "correctness", lens: "correctness" },
  { name: "tests", lens: "tests and performance" },
];

function findingRow(finding: CouncilFinding, reported: boolean): FindingRow {
  return {
    id: finding.id,
    location: `${finding.location.file}:${finding.location.line}`,
    claim: finding.claim,
    severity: finding.severity,
    score: finding.score,
    foundBy: finding.foundBy,
    confirmedBy: finding.confirmedBy,
    disputedBy: finding.disputedBy,
    reported,
  };
}

function reviewerRows(result: CouncilResult, reviewers: readonly CouncilReviewer[]): ReviewerRow[] {
  return result.reviewers.map((report) => {
    const lens = reviewers.find((r) => r.name === report.name)?.lens;
    return {
      name: report.name,
      ...(lens !== undefined ? { lens } : {}),
      status: report.status,
      code: report.code,
      findings: report.findings,
      runs: report.runs,
      tokens: report.tokens,
      costMicroUsd: report.costMicroUsd,
    };
  });
}

/** A council's end as one event: the reviewers, every merged finding (reported or dropped), the spend. */
export function councilEvent(
  label: string,
  result: CouncilResult,
  config: CouncilConfig,
): Extract<AppEvent, { type: "council" }> {
  return {
    type: "council",
    label,
    status: result.status,
    stoppedBecause: result.stoppedBecause,
    rounds: result.rounds,
    threshold: config.threshold ?? REVIEW_THRESHOLD,
    reviewers: reviewerRows(result, config.reviewers),
    findings: [
      ...result.findings.map((f) => findingRow(f, true)),
      ...result.belowThreshold.map((f) => findingRow(f, false)),
    ],
    modelCalls: result.stats.modelCalls,
    summary: councilSummary(label, result),
  };
}

/** Runs a council on the runner and reports its end; the threshold is the CLI's unless `config` sets one. */
export async function reviewWithCouncil(
  runner: Runner,
  label: string,
  task: CouncilTask,
  config: CouncilConfig,
  emit: (event: AppEvent) => void,
): Promise<CouncilResult> {
  const settled: CouncilConfig = { threshold: REVIEW_THRESHOLD, ...config };
  const result = await runCouncil(runner, task, settled);
  emit(councilEvent(label, result, settled));
  return result;
}
