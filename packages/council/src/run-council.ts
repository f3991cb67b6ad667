import { runHosted, type Runner } from "@x/runner";
import { councilSettings } from "./council-config";
import { deliberate, type Deliberation } from "./deliberation";
import { scoreFinding } from "./score";
import type { CouncilConfig, CouncilFinding, CouncilResult, CouncilTask } from "./types";

function scored(deliberation: Deliberation): CouncilFinding[] {
  return deliberation.clusters.map((cluster) => {
    const stances = deliberation.stances.get(cluster.id) ?? [];
    const score = scoreFinding(cluster, stances);
    const foundBy = [...new Set(cluster.members.map((member) => member.reviewer))].sort();
    const latest = new Map(stances.map((stance) => [stance.reviewer, stance]));
    return {
      id: cluster.id,
      location: cluster.lead.location,
      claim: cluster.lead.claim,
      evidence: cluster.lead.evidence,
      severity: cluster.severity,
      confidence: score.confidence,
      score: score.score,
      foundBy,
      confirmedBy: score.support.filter((name) => !foundBy.includes(name)),
      disputedBy: score.disputedBy.map((reviewer) => ({ reviewer, reason: latest.get(reviewer)?.reason ?? "" })),
      merged: cluster.members.length,
    };
  });
}

function byScore(a: CouncilFinding, b: CouncilFinding): number {
  return b.score - a.score || (a.id < b.id ? -1 : 1);
}

function statusOf(deliberation: Deliberation): CouncilResult["status"] {
  if (deliberation.stop === "aborted") return "aborted";
  if (deliberation.stop === "all_failed") return "failed";
  if (deliberation.budgetHit) return deliberation.reports.some((r) => r.status === "completed") ? "partial" : "failed";
  return "completed";
}

/**
 * A council of reviewers on one task: independent reviews in parallel (each a sub-run, so the
 * council's budget, permissions, classifier and abort hold for every call), bounded critique rounds
 * in which each finding is checked by the reviewers who did not make it, then deterministic merging
 * and scoring by support and confidence. Findings at or above the threshold are reported, with who
 * found, confirmed and disputed each, and what it all cost.
 */
export async function runCouncil(runner: Runner, task: CouncilTask, config: CouncilConfig): Promise<CouncilResult> {
  const settings = councilSettings(config);
  const hosted = await runHosted(
    runner,
    {
      objective: task.objective,
      name: "council",
      ...(config.budget ? { budget: config.budget } : {}),
      ...(config.permissions ? { permissions: config.permissions } : {}),
      ...(config.defaultPermission ? { defaultPermission: config.defaultPermission } : {}),
      ...(config.sessionId !== undefined ? { sessionId: config.sessionId } : {}),
    },
    (context) => deliberate(context, task, settings),
    config.signal ? { signal: config.signal } : {},
  );
  const deliberation = hosted.value;
  const all = scored(deliberation).sort(byScore);
  return {
    status: statusOf(deliberation),
    stoppedBecause: deliberation.stop,
    findings: all.filter((finding) => finding.score >= settings.threshold),
    belowThreshold: all.filter((finding) => finding.score < settings.threshold),
    reviewers: deliberation.reports,
    rounds: deliberation.rounds,
    stats: hosted.stats,
    runId: hosted.runId,
  };
}
