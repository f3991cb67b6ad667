import type { RunStats } from "@x/runner";
import type { TeacherReviewGate, TeacherStats } from "./result";

/** The teacher's side of the ledger, built from the stats of its runs (advice asks and takeovers). */
export function toTeacherStats(stats: RunStats): TeacherStats {
  const teacher: TeacherStats = {
    tokens: stats.tokens,
    tasks: stats.tasks,
    costUsd: stats.costUsd,
    costMicroUsd: stats.costMicroUsd,
  };
  if (stats.humanReview.count > 0) {
    teacher.humanReview = {
      count: stats.humanReview.count,
      totalWaitMs: stats.humanReview.totalWaitMs,
      gates: stats.humanReview.gates.map((g) => {
        const gate: TeacherReviewGate = { kind: g.kind, waitMs: g.waitMs };
        if (g.decision !== undefined) gate.decision = g.decision;
        return gate;
      }),
    };
  }
  return teacher;
}
