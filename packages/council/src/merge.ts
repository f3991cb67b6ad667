import type { Finding, Severity } from "./findings";
import { SEVERITIES } from "./findings";
import type { FindingMatcher } from "./matcher";

/** One reviewer's finding, with who made it. */
export interface RawFinding {
  reviewer: string;
  /** The reviewer's position in the council, for a stable order. */
  reviewerIndex: number;
  /** The finding's position in that reviewer's answer. */
  index: number;
  finding: Finding;
}

/** Findings the matcher says are one problem. */
export interface FindingCluster {
  /** `F1`, `F2`, … in order of location. */
  id: string;
  /** The member with the highest confidence (ties: the earliest): its text speaks for the cluster. */
  lead: Finding;
  members: RawFinding[];
  /** The worst severity any member gave. */
  severity: Severity;
}

function byLocation(a: RawFinding, b: RawFinding): number {
  const fa = a.finding.location;
  const fb = b.finding.location;
  return (
    (fa.file < fb.file ? -1 : fa.file > fb.file ? 1 : 0) ||
    fa.line - fb.line ||
    a.reviewerIndex - b.reviewerIndex ||
    a.index - b.index
  );
}

function worst(a: Severity, b: Severity): Severity {
  return SEVERITIES.indexOf(a) <= SEVERITIES.indexOf(b) ? a : b;
}

/**
 * Merges duplicates deterministically: findings are taken in location order (file, line, then
 * reviewer and position), and each joins the first cluster holding a member the matcher pairs it
 * with, else starts a new one. The same findings give the same clusters, whatever order the
 * reviewers answered in.
 */
export function mergeFindings(raw: readonly RawFinding[], matcher: FindingMatcher): FindingCluster[] {
  const clusters: Array<Omit<FindingCluster, "id">> = [];
  for (const item of [...raw].sort(byLocation)) {
    const home = clusters.find((cluster) => cluster.members.some((member) => matcher(member.finding, item.finding)));
    if (!home) {
      clusters.push({ lead: item.finding, members: [item], severity: item.finding.severity });
      continue;
    }
    home.members.push(item);
    home.severity = worst(home.severity, item.finding.severity);
    if (item.finding.confidence > home.lead.confidence) home.lead = item.finding;
  }
  return clusters.map((cluster, i) => ({ id: `F${i + 1}`, ...cluster }));
}

/** Folds cluster `from` into `into` (a critic called them duplicates); `into` keeps its id. */
export function joinClusters(into: FindingCluster, from: FindingCluster): void {
  into.members.push(...from.members);
  into.severity = worst(into.severity, from.severity);
  if (from.lead.confidence > into.lead.confidence) into.lead = from.lead;
}
