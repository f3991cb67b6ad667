import { describe, expect, it } from "vitest";
import { addUsage, computeCost, emptyUsage, microToUsd, usageFor, UsageSchema } from "./usage";

const model = { cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 } };

describe("cost", () => {
  it("prices per million tokens into integer micro-dollars", () => {
    expect(computeCost(model, { input: 1_000, output: 500, cacheRead: 10_000, cacheWrite: 2_000 })).toEqual({
      input: 3_000,
      output: 7_500,
      cacheRead: 3_000,
      cacheWrite: 7_500,
      total: 21_000,
    });
  });

  it("rounds each line once so totals stay integers", () => {
    const cost = computeCost(
      { cost: { input: 0.15, output: 0.6, cacheRead: 0, cacheWrite: 0 } },
      { input: 7, output: 3, cacheRead: 0, cacheWrite: 0 },
    );
    expect(cost.input).toBe(1);
    expect(cost.output).toBe(2);
    expect(Number.isInteger(cost.total)).toBe(true);
  });

  it("sums many calls without floating-point drift", () => {
    let total = emptyUsage();
    const one = usageFor({ cost: { input: 0.1, output: 0.1, cacheRead: 0, cacheWrite: 0 } }, { input: 10, output: 10 });
    for (let i = 0; i < 10_000; i++) total = addUsage(total, one);
    expect(total.cost.total).toBe(20_000);
    expect(microToUsd(total.cost.total)).toBe(0.02);
    expect(total.totalTokens).toBe(200_000);
  });

  it("keeps reasoning counts and the estimate flag", () => {
    const u = usageFor(model, { input: 1, output: 2, reasoning: 1, estimated: true });
    expect(u.reasoning).toBe(1);
    expect(u.estimated).toBe(true);
    expect(addUsage(u, emptyUsage()).reasoning).toBe(1);
    expect(addUsage(emptyUsage(), u).estimated).toBe(true);
    expect(addUsage(emptyUsage(), emptyUsage()).estimated).toBeUndefined();
  });

  it("rejects fractional or negative token counts from outside", () => {
    expect(UsageSchema.safeParse({ ...emptyUsage(), input: 1.5 }).success).toBe(false);
    expect(UsageSchema.safeParse({ ...emptyUsage(), output: -1 }).success).toBe(false);
    expect(UsageSchema.safeParse({ ...emptyUsage(), cost: { ...emptyUsage().cost, total: 0.5 } }).success).toBe(false);
  });
});
