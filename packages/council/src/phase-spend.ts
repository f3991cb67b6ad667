import type { Budget } from "@x/runner";
import type { ReviewerReport } from "./types";

interface Spent {
  tokens: number;
  costMicroUsd: number;
  runs: number;
}

function total(reports: readonly ReviewerReport[]): Spent {
  return reports.reduce(
    (sum, r) => ({
      tokens: sum.tokens + r.tokens,
      costMicroUsd: sum.costMicroUsd + r.costMicroUsd,
      runs: sum.runs + r.runs,
    }),
    { tokens: 0, costMicroUsd: 0, runs: 0 },
  );
}

/**
 * What the council has spent, and what one pass cost in the phase just run. A critique round's
 * passes start together, so the runner's budget check (before each call) would admit them all while
 * the tree is still under budget; the council starts a round only when what is left covers it at
 * the last phase's cost per pass, rather than overrun the budget by a whole round.
 */
export class PhaseSpend {
  private phaseStart: Spent = { tokens: 0, costMicroUsd: 0, runs: 0 };

  constructor(private readonly reports: readonly ReviewerReport[]) {}

  /** Marks the start of a phase: the next estimate reads the passes made from here. */
  startPhase(): void {
    this.phaseStart = total(this.reports);
  }

  /** Whether `passes` more passes, at the last phase's cost per pass, stay within the budget. */
  affords(budget: Budget | undefined, passes: number): boolean {
    if (!budget) return true;
    const now = total(this.reports);
    const runs = now.runs - this.phaseStart.runs;
    if (runs === 0) return true;
    const perPass = (field: "tokens" | "costMicroUsd") => (now[field] - this.phaseStart[field]) / runs;
    const fits = (limit: number | undefined, field: "tokens" | "costMicroUsd") =>
      limit === undefined || now[field] + passes * perPass(field) <= limit;
    return fits(budget.tokens, "tokens") && fits(budget.microUsd, "costMicroUsd");
  }
}
