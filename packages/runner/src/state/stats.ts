import { addUsage, emptyUsage, microToUsd, type AssistantMessage, type Usage } from "@x/llm-types";
import type { RunState } from "../vocabulary/park-schema";
import type { HumanReviewGate, RunStats } from "../vocabulary/types";

/**
 * The serialisable counters behind {@link RunStats}, as a park or checkpoint stores them: the type
 * is the stored schema's own, so the two cannot drift apart. `unbilled` is the estimated usage of
 * calls no provider could bill (see {@link couldBeBilled}), absent in older parks.
 */
export type StatsState = RunState["stats"];

export function emptyStats(): StatsState {
  return { usage: emptyUsage(), turns: 0, toolCalls: 0, modelCalls: 0, retries: 0, classifierCalls: 0, gates: [] };
}

/**
 * True when a provider could bill this call: it reported counts, or it served a reply (content
 * arrived, or at least its response id — a stream that started), whose usage the brain estimated
 * because the counts never came. A call it refused or never answered (a 429, a 5xx, a reset before
 * headers, a dead endpoint) carries only the brain's estimate of the prompt, and no bill.
 */
export function couldBeBilled(message: Pick<AssistantMessage, "usage" | "content" | "responseId">): boolean {
  return !message.usage.estimated || message.content.length > 0 || message.responseId !== undefined;
}

/**
 * Counts a model call: into `usage` (what budgets and the totals read) when a provider could bill
 * it — a failed call's too, since a cut stream is billed — else into `unbilled`, kept apart.
 */
export function addModelCall(
  stats: StatsState,
  message: Pick<AssistantMessage, "usage" | "content" | "responseId">,
): void {
  if (couldBeBilled(message)) stats.usage = addUsage(stats.usage, message.usage);
  else stats.unbilled = addUsage(stats.unbilled ?? emptyUsage(), message.usage);
  stats.modelCalls += 1;
}

export function addClassifierUsage(stats: StatsState, usage: Usage, calls: number): void {
  stats.usage = addUsage(stats.usage, usage);
  stats.classifierCalls += calls;
}

export function addGate(stats: StatsState, gate: HumanReviewGate): void {
  stats.gates.push(gate);
}

/** The verdicts a run has had so far: a person's (`gates`, its sub-runs' included) and its classifier calls. */
export function verdictCount(stats: StatsState): number {
  return stats.gates.length + stats.classifierCalls;
}

/** The public face: totals in integer micro-dollars, dollars derived for display. */
export function toRunStats(stats: StatsState): RunStats {
  const costMicroUsd = stats.usage.cost.total;
  return {
    tokens: stats.usage.totalTokens,
    tasks: 1 + (stats.children ?? []).reduce((sum, child) => sum + child.tasks, 0),
    costUsd: microToUsd(costMicroUsd),
    costMicroUsd,
    turns: stats.turns,
    toolCalls: stats.toolCalls,
    modelCalls: stats.modelCalls,
    retries: stats.retries,
    classifierCalls: stats.classifierCalls,
    usage: structuredClone(stats.usage),
    ...(stats.unbilled ? { unbilled: structuredClone(stats.unbilled) } : {}),
    humanReview: {
      count: stats.gates.length,
      totalWaitMs: stats.gates.reduce((sum, gate) => sum + gate.waitMs, 0),
      gates: stats.gates.map((gate) => ({ ...gate })),
    },
    ...(stats.children ? { children: stats.children.map((child) => ({ ...child })) } : {}),
  };
}

/** The stats of no run at all: what {@link sumRunStats} starts from. */
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

/**
 * Sums two runs' stats (a host that runs several tasks for one job: teacher mode's student, helper
 * and teacher runs). Costs stay integer micro-dollars, dollars are derived from the sum.
 */
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
    ...(a.unbilled || b.unbilled ? { unbilled: addUsage(a.unbilled ?? emptyUsage(), b.unbilled ?? emptyUsage()) } : {}),
    humanReview: {
      count: a.humanReview.count + b.humanReview.count,
      totalWaitMs: a.humanReview.totalWaitMs + b.humanReview.totalWaitMs,
      gates: [...a.humanReview.gates, ...b.humanReview.gates],
    },
    ...(a.children || b.children ? { children: [...(a.children ?? []), ...(b.children ?? [])] } : {}),
  };
}
