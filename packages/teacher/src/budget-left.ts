import type { RunStats, TaskSpec } from "@x/runner";

/** A budget with its micro-dollar limit lowered to `microUsd`, when that is tighter. */
export function tighter(budget: TaskSpec["budget"], microUsd: number | undefined): TaskSpec["budget"] {
  if (microUsd === undefined) return budget;
  return { ...budget, microUsd: Math.min(budget?.microUsd ?? microUsd, microUsd) };
}

/** A host budget covers the student's whole task, so each continuation gets what is left of it. */
export function remaining(budget: TaskSpec["budget"], spent: RunStats): TaskSpec["budget"] {
  if (!budget) return undefined;
  const left: NonNullable<TaskSpec["budget"]> = {};
  if (budget.tokens !== undefined) left.tokens = Math.max(0, budget.tokens - spent.tokens);
  if (budget.microUsd !== undefined) left.microUsd = Math.max(0, budget.microUsd - spent.costMicroUsd);
  return left;
}
