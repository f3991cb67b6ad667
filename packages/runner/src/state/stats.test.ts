import { usageFor } from "@x/llm-types";
import { describe, expect, it } from "vitest";
import {
  addClassifierUsage,
  addGate,
  addModelCall,
  couldBeBilled,
  emptyRunStats,
  emptyStats,
  sumRunStats,
  toRunStats,
} from "./stats";

describe("stats", () => {
  it("sums every call's usage exactly in micro-dollars and derives dollars for display", () => {
    const stats = emptyStats();
    const price = { cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 } };
    addModelCall(stats, { content: [], usage: usageFor(price, { input: 1000, output: 200, cacheRead: 5000 }) });
    addModelCall(stats, { content: [], usage: usageFor(price, { input: 10, output: 0 }) });
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
    expect(out.unbilled).toBeUndefined();
  });

  it("an estimate for a call no provider served is kept apart: not in tokens, cost or usage", () => {
    const stats = emptyStats();
    const price = { cost: { input: 3, output: 15, cacheRead: 0, cacheWrite: 0 } };
    const refused = usageFor(price, { input: 800, output: 0, estimated: true });
    addModelCall(stats, { content: [], usage: refused });
    // Served but the counts never came (a cut stream): billable, the estimate stands in.
    addModelCall(stats, { content: [{ type: "text", text: "The answer is" }], usage: refused });
    addModelCall(stats, { content: [], responseId: "msg_1", usage: refused });
    const out = toRunStats(stats);
    expect(out).toMatchObject({ tokens: 1600, costMicroUsd: 4800, modelCalls: 3 });
    expect(out.unbilled).toMatchObject({ totalTokens: 800, estimated: true, cost: { total: 2400 } });
    expect(couldBeBilled({ content: [], usage: usageFor(price, { input: 1, output: 0 }) })).toBe(true);
  });
});

describe("sumRunStats", () => {
  it("adds two runs' stats field by field, unbilled and children included, from emptyRunStats", () => {
    const price = { cost: { input: 3, output: 15, cacheRead: 0, cacheWrite: 0 } };
    const first = emptyStats();
    addModelCall(first, { content: [], usage: usageFor(price, { input: 1000, output: 100 }) });
    addGate(first, { kind: "ask", waitMs: 40, decision: "approve" });
    const second = emptyStats();
    addModelCall(second, { content: [], usage: usageFor(price, { input: 10, output: 1 }) });
    second.unbilled = usageFor(price, { input: 7, output: 0 });
    const sum = sumRunStats(sumRunStats(emptyRunStats(), toRunStats(first)), toRunStats(second));
    expect(sum).toMatchObject({ tasks: 2, modelCalls: 2, tokens: 1111, costMicroUsd: 4500 + 45 });
    expect(sum.costUsd).toBeCloseTo(0.004545, 10);
    expect(sum.unbilled?.input).toBe(7);
    expect(sum.humanReview).toEqual({
      count: 1,
      totalWaitMs: 40,
      gates: [{ kind: "ask", waitMs: 40, decision: "approve" }],
    });
    expect(emptyRunStats()).not.toHaveProperty("unbilled");
    expect(sumRunStats(emptyRunStats(), emptyRunStats())).not.toHaveProperty("children");
  });
});
