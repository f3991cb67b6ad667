import type { MessageProvenance } from "@x/llm-types";
import { LIMITS, type StrategyHit, type StrategyStore } from "@x/strategy-store-core";
import type { ResolvedTeacherConfig } from "./config";
import type { EscalationRecord, StoredStrategy } from "./result";
import { clip } from "./side-calls";

/** The store and scope when both are set; strategy memory is off otherwise (no scope, no store use). */
function memory(config: ResolvedTeacherConfig): { store: StrategyStore; scope: string } | undefined {
  if (config.strategyStore === undefined || config.scope === undefined) return undefined;
  return { store: config.strategyStore, scope: config.scope };
}

// Strategy memory only saves teacher calls: a store that fails must not fail the student's task,
// so its errors are dropped and the run goes on as if it had found nothing.

/** The top `retrieveK` strategies for this objective, from this scope only. */
export async function recallStrategies(config: ResolvedTeacherConfig, objective: string): Promise<StrategyHit[]> {
  const mem = memory(config);
  if (!mem) return [];
  let hits: StrategyHit[];
  try {
    hits = await mem.store.search({ scope: mem.scope, query: clip(objective, LIMITS.text - 1), k: config.retrieveK });
  } catch {
    return [];
  }
  // The scope wall is the store's contract, but what we retrieve is pasted into a prompt: a backend
  // bug must not put another tenant's text in front of this one's model.
  return hits.filter((hit) => hit.record.scope === mem.scope);
}

/** The objective with retrieved strategies put ahead of it, as hints rather than orders. */
export function withStrategies(objective: string, hits: readonly StrategyHit[]): string {
  if (hits.length === 0) return objective;
  const lines = hits.map(({ record }) => {
    const extra = [
      record.correction && `common mistake: ${record.correction}`,
      record.nextStep && `first step: ${record.nextStep}`,
    ]
      .filter(Boolean)
      .join("; ");
    return `- ${record.strategy}${extra ? ` (${extra})` : ""}`;
  });
  return `Approaches that worked on similar tasks before (use them if they fit):\n${lines.join("\n")}\n\n${objective}`;
}

/**
 * Who wrote an objective {@link withStrategies} composed: the recalled strategies ahead, the user's
 * task last. Auto mode's classifier shows only the task as the user's words — a poisoned strategy in
 * the store must never speak as the user. Anything else is the store's, whole.
 */
export function strategiesProvenance(composed: string, task: string): MessageProvenance {
  if (composed === task) return "user";
  if (!composed.endsWith(task)) return "strategy";
  return [
    { source: "strategy", chars: composed.length - task.length },
    { source: "user", chars: task.length },
  ];
}

/**
 * Stores the final escalation's strategy after a success, when the teacher was confident enough; returns what was
 * stored.
 */
export async function rememberStrategy(
  config: ResolvedTeacherConfig,
  problem: string,
  last: EscalationRecord | undefined,
): Promise<StoredStrategy | undefined> {
  const mem = memory(config);
  const advice = last?.teacher;
  if (!mem || !last || !advice?.strategy || advice.confidence < config.minConfidenceToStore) return undefined;
  try {
    const record = await mem.store.put({
      scope: mem.scope,
      problem: clip(problem, LIMITS.text - 1),
      strategy: clip(advice.strategy, LIMITS.text - 1),
      correction: advice.correction === undefined ? undefined : clip(advice.correction, LIMITS.text - 1),
      nextStep: advice.nextStep === undefined ? undefined : clip(advice.nextStep, LIMITS.text - 1),
      confidence: advice.confidence,
      source: "teacher",
      tags: [last.trigger],
    });
    return { id: record.id, strategy: record.strategy, confidence: record.confidence };
  } catch {
    // See above: a failed write costs a future teacher call, nothing more.
    return undefined;
  }
}

/** Counts a use (and, on success, a success) for each strategy the run was given. */
export async function reportOutcome(
  config: ResolvedTeacherConfig,
  hits: readonly StrategyHit[],
  success: boolean,
): Promise<void> {
  const mem = memory(config);
  if (!mem) return;
  for (const { record } of hits) {
    try {
      await mem.store.recordOutcome(mem.scope, record.id, success);
    } catch {
      // The record may have been deleted meanwhile; its ranking simply does not move.
    }
  }
}
