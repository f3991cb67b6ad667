import type { Usage } from "@x/llm-types";
import type { Budget, Terminal } from "../vocabulary/types";

/**
 * The hard stop checked before every model call: once spent tokens or micro-dollars reach the
 * budget, no further call is made. Undefined when there is room.
 */
export function budgetExceeded(
  budget: Budget | undefined,
  spent: { tokens: number; microUsd: number },
): Terminal | undefined {
  if (!budget) return undefined;
  if (budget.tokens !== undefined && spent.tokens >= budget.tokens) {
    return {
      code: "budget_tokens",
      cause: "budget",
      message: `token budget spent: ${spent.tokens} of ${budget.tokens}`,
    };
  }
  if (budget.microUsd !== undefined && spent.microUsd >= budget.microUsd) {
    return {
      code: "budget_cost",
      cause: "budget",
      message: `cost budget spent: ${spent.microUsd} of ${budget.microUsd} micro-USD`,
    };
  }
  return undefined;
}

/** A run as the budget sees it: its counters, its live children, and its parent. */
export interface BudgetedRun {
  spec: { budget?: Budget };
  state: { stats: { usage: Usage } };
  lineage?: { parent: BudgetedRun };
  subRuns?: { running: Iterable<BudgetedRun> };
}

/** What is left of the tightest budget on the way up from `run`: what a sub-run is carved from. */
export function remainingBudget(run: BudgetedRun): Budget {
  const left: Budget = {};
  for (let at: BudgetedRun | undefined = run; at; at = at.lineage?.parent) {
    const budget = at.spec.budget;
    if (!budget) continue;
    const spent = treeSpent(at);
    if (budget.tokens !== undefined)
      left.tokens = Math.min(left.tokens ?? Infinity, Math.max(0, budget.tokens - spent.tokens));
    if (budget.microUsd !== undefined)
      left.microUsd = Math.min(left.microUsd ?? Infinity, Math.max(0, budget.microUsd - spent.microUsd));
  }
  return left;
}

/** What a run's subtree has spent: its own counters (finished children folded in) plus its running children. */
function treeSpent(run: BudgetedRun): { tokens: number; microUsd: number } {
  const own = run.state.stats.usage;
  let tokens = own.totalTokens;
  let microUsd = own.cost.total;
  for (const child of run.subRuns?.running ?? []) {
    const spent = treeSpent(child);
    tokens += spent.tokens;
    microUsd += spent.microUsd;
  }
  return { tokens, microUsd };
}

/**
 * The run's budget check: what the run has spent, plus `pending` — usage not yet in the run's
 * stats (a classification in progress). A sub-run is also held to every ancestor's budget, each
 * against what that ancestor's whole tree has spent.
 */
export function runBudgetExceeded(run: BudgetedRun, pending?: Usage): Terminal | undefined {
  for (let at: BudgetedRun | undefined = run; at; at = at.lineage?.parent) {
    const spent = treeSpent(at);
    const over = budgetExceeded(at.spec.budget, {
      tokens: spent.tokens + (pending?.totalTokens ?? 0),
      microUsd: spent.microUsd + (pending?.cost.total ?? 0),
    });
    if (over) return at === run ? over : { ...over, message: `${over.message} (an ancestor run's budget)` };
  }
  return undefined;
}
