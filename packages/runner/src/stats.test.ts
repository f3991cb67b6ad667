import { usageFor } from "@x/llm-types";
import { describe, expect, it } from "vitest";
import { addClassifierUsage, addGate, addModelCall, emptyStats, toRunStats } from "./stats";

describe("stats", () => {
  it("sums every call's usage exactly in micro-dollars and derives dollars for display", () => {
    const stats = emptyStats();
    const price = { cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 } };
    addModelCall(stats, usageFor(price, { input: 1000, output: 200, cacheRead: 5000 }));
    addModelCall(stats, usageFor(price, { input: 10, output: 0 }));
    addClassifierUsage(stats, usageFor(price, { input: 300, output: 4 }), 2);
    addGate(stats, { kind: "ask", waitMs: 1500, decision: "approve" });
    addGate(stats, { kind: "auto_unavailable", waitMs: 500, decision: "deny" });
    const out = toRunStats(stats);
    expect(out.costMicroUsd).toBe(3000 + 3000 + 1500 + 30 + 900 + 60);
    expect(out.costUsd).toBeCloseTo(0.00849, 10);
    expect(out.tokens).toBe(1200 + 5000 + 10 + 304);
    expect(out).toMatchObject({
      modelCalls: 2,
      classifierCalls: 2,
      tasks: 1,
      humanReview: { count: 2, totalWaitMs: 2000 },
    });
    expect(Number.isInteger(out.costMicroUsd)).toBe(true);
  });
});
