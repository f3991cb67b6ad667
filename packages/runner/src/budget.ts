import type { Usage } from "@x/llm-types";
import type { Budget, Terminal } from "./types";

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

/**
 * The run's budget check: what the run has spent, plus `pending` — usage not yet in the run's
 * stats (a classification in progress).
 */
export function runBudgetExceeded(
  run: { spec: { budget?: Budget }; state: { stats: { usage: Usage } } },
  pending?: Usage,
): Terminal | undefined {
  const spent = run.state.stats.usage;
  return budgetExceeded(run.spec.budget, {
    tokens: spent.totalTokens + (pending?.totalTokens ?? 0),
    microUsd: spent.cost.total + (pending?.cost.total ?? 0),
  });
}
