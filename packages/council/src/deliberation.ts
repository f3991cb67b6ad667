import type { TaskResult, ToolContext } from "@x/runner";
import type { CouncilSettings } from "./council-config";
import { CritiqueSchema, ReviewSchema, type Critique } from "./findings";
import { joinClusters, mergeFindings, type FindingCluster, type RawFinding } from "./merge";
import { critiqueObjective, reviewObjective, type ShownFinding } from "./prompts";
import { PhaseSpend } from "./phase-spend";
import { runPass, type PassOutcome } from "./reviewer-run";
import { scoreFinding, type Stance } from "./score";
import type { CouncilReviewer, CouncilStop, CouncilTask, ReviewerReport } from "./types";

/** What the council concluded, before scoring is turned into the result. */
export interface Deliberation {
  clusters: FindingCluster[];
  stances: Map<string, Stance[]>;
  reports: ReviewerReport[];
  rounds: number;
  stop: CouncilStop;
  budgetHit: boolean;
}

function report(reviewer: CouncilReviewer): ReviewerReport {
  return { name: reviewer.name, status: "pending", code: "pending", findings: 0, runs: 0, tokens: 0, costMicroUsd: 0 };
}

function bill(entry: ReviewerReport, result: TaskResult | undefined): void {
  entry.runs += 1;
  if (!result) return;
  entry.tokens += result.stats.tokens;
  entry.costMicroUsd += result.stats.costMicroUsd;
}

const isBudget = (outcome: PassOutcome<unknown>) => !outcome.ok && outcome.status === "budget_exhausted";

/** A finding is contested when someone backs it and someone disputes it. */
function contested(cluster: FindingCluster, stances: readonly Stance[]): boolean {
  const score = scoreFinding(cluster, stances);
  return score.support.length > 0 && score.disputedBy.length > 0;
}

function finders(cluster: FindingCluster): Set<string> {
  return new Set(cluster.members.map((member) => member.reviewer));
}

/** What one critic is shown in a round: in the first, what others found; later, what is contested. */
function shownTo(
  reviewer: string,
  clusters: readonly FindingCluster[],
  stances: Map<string, Stance[]>,
  round: number,
): ShownFinding[] {
  const pick =
    round === 1
      ? clusters.filter((cluster) => !finders(cluster).has(reviewer))
      : clusters.filter((cluster) => contested(cluster, stances.get(cluster.id) ?? []));
  return pick.map((cluster) => ({
    id: cluster.id,
    file: cluster.lead.location.file,
    line: cluster.lead.location.line,
    claim: cluster.lead.claim,
    evidence: cluster.lead.evidence,
    ...(round > 1
      ? { said: (stances.get(cluster.id) ?? []).map((s) => `${s.reviewer}: ${s.verdict} (${s.reason})`) }
      : {}),
  }));
}

/**
 * Applies one critic's verdicts on the findings it was shown (ids it was not shown are ignored).
 * Returns its duplicate votes, counted once all critics of the round are in.
 */
function applyVerdicts(
  reviewer: string,
  critique: Critique,
  shown: readonly ShownFinding[],
  stances: Map<string, Stance[]>,
  round: number,
): Array<{ from: string; into: string }> {
  const visible = new Set(shown.map((finding) => finding.id));
  const votes: Array<{ from: string; into: string }> = [];
  for (const verdict of critique.verdicts) {
    if (!visible.has(verdict.id)) continue;
    if (verdict.verdict === "duplicate") {
      if (verdict.duplicateOf && verdict.duplicateOf !== verdict.id)
        votes.push({ from: verdict.id, into: verdict.duplicateOf });
      continue;
    }
    const list = stances.get(verdict.id) ?? [];
    list.push({ reviewer, verdict: verdict.verdict, reason: verdict.reason, round });
    stances.set(verdict.id, list);
  }
  return votes;
}

/**
 * Joins a finding into another when at least half of the critics shown it called it a duplicate
 * of that same one; taken in id order, so the outcome does not depend on who answered first.
 */
function joinDuplicates(
  clusters: FindingCluster[],
  stances: Map<string, Stance[]>,
  votes: ReadonlyArray<{ from: string; into: string }>,
  shownCount: Map<string, number>,
): FindingCluster[] {
  const tally = new Map<string, Map<string, number>>();
  for (const vote of votes) {
    const row = tally.get(vote.from) ?? new Map<string, number>();
    row.set(vote.into, (row.get(vote.into) ?? 0) + 1);
    tally.set(vote.from, row);
  }
  const gone = new Set<string>();
  for (const cluster of clusters) {
    const row = tally.get(cluster.id);
    if (!row) continue;
    const [into, count] = [...row].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]!;
    const target = clusters.find((c) => c.id === into && !gone.has(c.id));
    if (!target || target === cluster || count * 2 < (shownCount.get(cluster.id) ?? 1)) continue;
    joinClusters(target, cluster);
    stances.set(target.id, [...(stances.get(target.id) ?? []), ...(stances.get(cluster.id) ?? [])]);
    stances.delete(cluster.id);
    gone.add(cluster.id);
  }
  return clusters.filter((cluster) => !gone.has(cluster.id));
}

/** Every reviewer who has a review found every finding: nothing to argue about. */
function unanimous(clusters: readonly FindingCluster[], active: readonly string[]): boolean {
  return clusters.every((cluster) => active.every((name) => finders(cluster).has(name)));
}

/** The independent reviews, all at once. */
async function reviewPhase(
  context: ToolContext,
  task: CouncilTask,
  settings: CouncilSettings,
  reports: ReviewerReport[],
) {
  const outcomes = await Promise.all(
    settings.reviewers.map((reviewer) =>
      runPass(context, reviewer, reviewObjective(task, reviewer.lens), ReviewSchema, settings.reviewerTimeoutMs),
    ),
  );
  const raw: RawFinding[] = [];
  const active: string[] = [];
  outcomes.forEach((outcome, reviewerIndex) => {
    const entry = reports[reviewerIndex]!;
    bill(entry, outcome.result);
    if (!outcome.ok) {
      entry.status = outcome.status;
      entry.code = outcome.code;
      return;
    }
    entry.status = "completed";
    entry.code = "completed";
    entry.findings = outcome.value.findings.length;
    active.push(entry.name);
    outcome.value.findings.forEach((finding, index) =>
      raw.push({ reviewer: entry.name, reviewerIndex, index, finding }),
    );
  });
  return { raw, active, budgetHit: outcomes.some(isBudget) };
}

interface CouncilState {
  clusters: FindingCluster[];
  stances: Map<string, Stance[]>;
  reports: ReviewerReport[];
  active: string[];
}

interface CritiqueJob {
  reviewer: CouncilReviewer;
  entry: ReviewerReport;
  shown: ShownFinding[];
}

/** Who is asked in a round: every active reviewer with something to judge. */
function critiqueJobs(settings: CouncilSettings, state: CouncilState, round: number): CritiqueJob[] {
  return settings.reviewers
    .map((reviewer, index) => ({
      reviewer,
      entry: state.reports[index]!,
      shown: shownTo(reviewer.name, state.clusters, state.stances, round),
    }))
    .filter((job) => state.active.includes(job.reviewer.name) && job.shown.length > 0);
}

/** One critique round: its critics at once, then their duplicate votes counted together. */
async function critiqueRound(
  context: ToolContext,
  task: CouncilTask,
  settings: CouncilSettings,
  state: CouncilState,
  jobs: readonly CritiqueJob[],
  round: number,
): Promise<{ budgetHit: boolean }> {
  const outcomes = await Promise.all(
    jobs.map((job) =>
      runPass(
        context,
        job.reviewer,
        critiqueObjective(task, job.shown, round > 1),
        CritiqueSchema,
        settings.reviewerTimeoutMs,
      ),
    ),
  );
  const votes: Array<{ from: string; into: string }> = [];
  const shownCount = new Map<string, number>();
  outcomes.forEach((outcome, i) => {
    const job = jobs[i]!;
    bill(job.entry, outcome.result);
    for (const finding of job.shown) shownCount.set(finding.id, (shownCount.get(finding.id) ?? 0) + 1);
    if (outcome.ok) votes.push(...applyVerdicts(job.reviewer.name, outcome.value, job.shown, state.stances, round));
  });
  state.clusters = joinDuplicates(state.clusters, state.stances, votes, shownCount);
  return { budgetHit: outcomes.some(isBudget) };
}

/** Reviews, then bounded critique rounds that stop early once nothing is contested or the budget is spent. */
export async function deliberate(
  context: ToolContext,
  task: CouncilTask,
  settings: CouncilSettings,
): Promise<Deliberation> {
  const reports = settings.reviewers.map(report);
  const reviews = await reviewPhase(context, task, settings, reports);
  const state: CouncilState = {
    clusters: mergeFindings(reviews.raw, settings.matcher),
    stances: new Map<string, Stance[]>(),
    reports,
    active: reviews.active,
  };
  const done = (stop: CouncilStop, rounds: number, budgetHit: boolean): Deliberation => ({
    clusters: state.clusters,
    stances: state.stances,
    reports,
    rounds,
    stop,
    budgetHit,
  });
  if (context.signal.aborted) return done("aborted", 0, reviews.budgetHit);
  if (reviews.active.length === 0) return done(reviews.budgetHit ? "budget" : "all_failed", 0, reviews.budgetHit);
  if (reviews.budgetHit) return done("budget", 0, true);
  if (state.clusters.length === 0) return done("no_findings", 0, false);
  if (unanimous(state.clusters, state.active)) return done("agreement", 0, false);
  const spend = new PhaseSpend(reports);
  for (let round = 1; round <= settings.maxRounds; round++) {
    const jobs = critiqueJobs(settings, state, round);
    if (!spend.affords(settings.budget, jobs.length)) return done("budget", round - 1, true);
    spend.startPhase();
    const { budgetHit } = await critiqueRound(context, task, settings, state, jobs, round);
    if (context.signal.aborted) return done("aborted", round, budgetHit);
    if (budgetHit) return done("budget", round, true);
    const open = state.clusters.some((cluster) => contested(cluster, state.stances.get(cluster.id) ?? []));
    if (!open) return done("agreement", round, false);
  }
  return done("round_cap", settings.maxRounds, false);
}
