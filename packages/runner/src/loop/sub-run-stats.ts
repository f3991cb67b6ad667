import { addUsage, emptyUsage, microToUsd, type ToolCall, type Usage } from "@x/llm-types";
import type { PendingCall } from "../vocabulary/park-schema";
import type { Lineage, RunContext } from "../state/run-context";
import { toRunStats } from "../state/stats";
import type { ChildRunStats } from "../vocabulary/sub-run-types";
import type { RunStats, TaskResult } from "../vocabulary/types";

/** A child's line in its parent's breakdown: its whole subtree's totals. */
export function childLine(call: Pick<ToolCall, "id" | "name">, result: TaskResult): ChildRunStats {
  return {
    runId: result.runId,
    toolName: call.name,
    toolCallId: call.id,
    status: result.status,
    code: result.terminal.code,
    tokens: result.stats.tokens,
    costMicroUsd: result.stats.costMicroUsd,
    modelCalls: result.stats.modelCalls,
    classifierCalls: result.stats.classifierCalls,
    turns: result.stats.turns,
    tasks: result.stats.tasks,
  };
}

/**
 * A finished child's spend joins its parent's counters (so it counts against the parent's budget
 * and every ancestor's, and shows in the parent's stats), with its own line in the breakdown.
 */
export function foldChild(parent: RunContext, call: Pick<ToolCall, "id" | "name">, result: TaskResult): void {
  const stats = parent.state.stats;
  stats.usage = addUsage(stats.usage, result.stats.usage);
  stats.modelCalls += result.stats.modelCalls;
  stats.classifierCalls += result.stats.classifierCalls;
  stats.retries += result.stats.retries;
  stats.gates.push(...result.stats.humanReview.gates);
  if (result.stats.unbilled) stats.unbilled = addUsage(stats.unbilled ?? emptyUsage(), result.stats.unbilled);
  (stats.children ??= []).push(childLine(call, result));
}

/** Two runs' estimates for calls no provider served, when either has one. */
function unbilledOf(a: Usage | undefined, b: Usage | undefined): { unbilled?: Usage } {
  if (!a && !b) return {};
  return { unbilled: addUsage(a ?? emptyUsage(), b ?? emptyUsage()) };
}

/**
 * Adds a parked child's stats to its parent's. A parked child is not folded into the parent's
 * counters: its spend lives in its own park and is folded once, when the resumed child finishes.
 */
function withParkedChild(own: RunStats, call: Pick<ToolCall, "id" | "name">, child: TaskResult): RunStats {
  const usage = addUsage(own.usage, child.stats.usage);
  const gates = [...own.humanReview.gates, ...child.stats.humanReview.gates];
  return {
    ...own,
    tokens: usage.totalTokens,
    tasks: own.tasks + child.stats.tasks,
    costMicroUsd: usage.cost.total,
    costUsd: microToUsd(usage.cost.total),
    modelCalls: own.modelCalls + child.stats.modelCalls,
    retries: own.retries + child.stats.retries,
    classifierCalls: own.classifierCalls + child.stats.classifierCalls,
    usage,
    humanReview: {
      count: gates.length,
      totalWaitMs: gates.reduce((sum, gate) => sum + gate.waitMs, 0),
      gates,
    },
    children: [...(own.children ?? []), childLine(call, child)],
    ...unbilledOf(own.unbilled, child.stats.unbilled),
  };
}

/** The stats a run reports: its counters, plus the subtree of a child it parked on. */
export function resultStats(ctx: RunContext, park: PendingCall | undefined): RunStats {
  const own = toRunStats(ctx.state.stats);
  const child = park?.child ? ctx.subRuns?.parks.get(park.toolCallId) : undefined;
  if (!park || !child) return own;
  return withParkedChild(own, { id: park.toolCallId, name: park.toolName }, child);
}

/**
 * A child's end, as its parent records it: it leaves the running set, its spend is folded in (or,
 * when it parked and may park the parent, kept with the park), and its full result is kept.
 */
export function settleInParent(lineage: Lineage, result: TaskResult, child?: RunContext): void {
  const { parent, toolCall, path } = lineage;
  const book = parent.subRuns;
  if (!book) return;
  if (child) book.running.delete(child);
  if (result.status === "parked" && result.parked && lineage.parkable) book.parks.set(toolCall.id, result);
  else foldChild(parent, toolCall, result);
  book.records.push({ path, result });
}
