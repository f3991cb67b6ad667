import { describe, expect, it } from "vitest";
import { budgetExceeded } from "./budget";

describe("budgetExceeded", () => {
  it("no budget, or room left ⇒ undefined", () => {
    expect(budgetExceeded(undefined, { tokens: 1e9, microUsd: 1e9 })).toBeUndefined();
    expect(budgetExceeded({ tokens: 100, microUsd: 50 }, { tokens: 99, microUsd: 49 })).toBeUndefined();
  });
  it("tokens reached ⇒ budget_tokens; micro-dollars reached ⇒ budget_cost", () => {
    expect(budgetExceeded({ tokens: 100 }, { tokens: 100, microUsd: 0 })).toMatchObject({
      code: "budget_tokens",
      cause: "budget",
    });
    expect(budgetExceeded({ microUsd: 10 }, { tokens: 0, microUsd: 12 })).toMatchObject({
      code: "budget_cost",
      cause: "budget",
    });
  });
});
