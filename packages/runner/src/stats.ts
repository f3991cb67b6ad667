import { addUsage, emptyUsage, microToUsd, type Usage } from "@x/llm-types";
import type { HumanReviewGate, RunStats } from "./types";

/** The serialisable counters behind {@link RunStats}; a parked run carries them across processes. */
export interface StatsState {
  usage: Usage;
  turns: number;
  toolCalls: number;
  modelCalls: number;
  retries: number;
  classifierCalls: number;
  gates: HumanReviewGate[];
}

export function emptyStats(): StatsState {
  return { usage: emptyUsage(), turns: 0, toolCalls: 0, modelCalls: 0, retries: 0, classifierCalls: 0, gates: [] };
}

/** Counts a model call's usage — a failed call's too: the provider may bill it. */
export function addModelCall(stats: StatsState, usage: Usage): void {
  stats.usage = addUsage(stats.usage, usage);
  stats.modelCalls += 1;
}

export function addClassifierUsage(stats: StatsState, usage: Usage, calls: number): void {
  stats.usage = addUsage(stats.usage, usage);
  stats.classifierCalls += calls;
}

export function addGate(stats: StatsState, gate: HumanReviewGate): void {
  stats.gates.push(gate);
}

/** The public face: totals in integer micro-dollars, dollars derived for display. */
export function toRunStats(stats: StatsState): RunStats {
  const costMicroUsd = stats.usage.cost.total;
  return {
    tokens: stats.usage.totalTokens,
    tasks: 1,
    costUsd: microToUsd(costMicroUsd),
    costMicroUsd,
    turns: stats.turns,
    toolCalls: stats.toolCalls,
    modelCalls: stats.modelCalls,
    retries: stats.retries,
    classifierCalls: stats.classifierCalls,
    usage: structuredClone(stats.usage),
    humanReview: {
      count: stats.gates.length,
      totalWaitMs: stats.gates.reduce((sum, gate) => sum + gate.waitMs, 0),
      gates: stats.gates.map((gate) => ({ ...gate })),
    },
  };
}
