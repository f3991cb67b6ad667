import type { Budget, Terminal } from "./types";

/**
 * The hard stop checked before every model call: once spent tokens or micro-dollars reach the
 * budget, no further call is made. Undefined when there is room.
 */
export function budgetExceeded(budget: Budget | undefined, spent: { tokens: number; microUsd: number }): Terminal | undefined {
  if (!budget) return undefined;
  if (budget.tokens !== undefined && spent.tokens >= budget.tokens) {
    return { code: "budget_tokens", cause: "budget", message: `token budget spent: ${spent.tokens} of ${budget.tokens}` };
  }
  if (budget.microUsd !== undefined && spent.microUsd >= budget.microUsd) {
    return { code: "budget_cost", cause: "budget", message: `cost budget spent: ${spent.microUsd} of ${budget.microUsd} micro-USD` };
  }
  return undefined;
}
