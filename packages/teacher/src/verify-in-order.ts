import { describeError } from "@x/llm-types";
import { sumRunStats } from "@x/runner";
import type { VerifyInput, VerifyUsage, VerifyVerdict } from "./config";
import { usageStats } from "./judge";

type Verify = (input: VerifyInput) => VerifyVerdict | Promise<VerifyVerdict>;

/**
 * Checks run one after another until one decides: code first, a model only where code cannot tell
 * (`verifyInOrder(numericAnswerChecks(), secondOpinion({ … }))`). The first `true` or `false` is the
 * verdict; what every check asked spent is summed into its `usage`. A check that throws is passed
 * over like "cannot tell" and named in the reason, so a broken cheap check never hides a later one.
 */
export function verifyInOrder(...checks: Verify[]): (input: VerifyInput) => Promise<VerifyVerdict> {
  return async (input) => {
    let spent: VerifyUsage | undefined;
    const notes: string[] = [];
    for (const [i, check] of checks.entries()) {
      let verdict: VerifyVerdict;
      try {
        verdict = await check(input);
      } catch (error) {
        notes.push(`check ${i + 1} threw: ${describeError(error)}`);
        continue;
      }
      const pass = typeof verdict === "boolean" ? verdict : verdict?.pass;
      if (typeof verdict === "object" && verdict.usage !== undefined) spent = add(spent, verdict.usage);
      if (typeof verdict === "object" && verdict.reason !== undefined && pass === undefined) notes.push(verdict.reason);
      if (pass === undefined) continue;
      const reason = typeof verdict === "object" ? verdict.reason : undefined;
      return { pass, ...(reason !== undefined ? { reason } : {}), ...(spent ? { usage: spent } : {}) };
    }
    if (notes.length === 0 && spent === undefined) return undefined;
    return { ...(notes.length > 0 ? { reason: notes.join("; ") } : {}), ...(spent ? { usage: spent } : {}) };
  };
}

function add(a: VerifyUsage | undefined, b: VerifyUsage): VerifyUsage {
  return a === undefined ? b : sumRunStats(usageStats(a), usageStats(b));
}
