import { addUsage, emptyUsage, microToUsd } from "@x/llm-types";
import type { RunStats } from "@x/runner";
import type { TeacherReviewGate, TeacherStats } from "./result";

export function emptyRunStats(): RunStats {
  return {
    tokens: 0,
    tasks: 0,
    costUsd: 0,
    costMicroUsd: 0,
    turns: 0,
    toolCalls: 0,
    modelCalls: 0,
    retries: 0,
    classifierCalls: 0,
    usage: emptyUsage(),
    humanReview: { count: 0, totalWaitMs: 0, gates: [] },
  };
}

/** Sums two runs' stats; costs stay integer micro-dollars, dollars are derived from the sum. */
export function sumRunStats(a: RunStats, b: RunStats): RunStats {
  const costMicroUsd = a.costMicroUsd + b.costMicroUsd;
  return {
    tokens: a.tokens + b.tokens,
    tasks: a.tasks + b.tasks,
    costUsd: microToUsd(costMicroUsd),
    costMicroUsd,
    turns: a.turns + b.turns,
    toolCalls: a.toolCalls + b.toolCalls,
    modelCalls: a.modelCalls + b.modelCalls,
    retries: a.retries + b.retries,
    classifierCalls: a.classifierCalls + b.classifierCalls,
    usage: addUsage(a.usage, b.usage),
    humanReview: {
      count: a.humanReview.count + b.humanReview.count,
      totalWaitMs: a.humanReview.totalWaitMs + b.humanReview.totalWaitMs,
      gates: [...a.humanReview.gates, ...b.humanReview.gates],
    },
    ...(a.children || b.children ? { children: [...(a.children ?? []), ...(b.children ?? [])] } : {}),
  };
}

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
