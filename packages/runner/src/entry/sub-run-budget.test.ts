import { fauxText, fauxToolCall } from "@x/brain-faux";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../vocabulary/define-tool";
import { runSubTask } from "../loop/sub-run";
import { delegate, spy, treeSetup } from "../../test/sub-run-harness";

const used = (input: number, output: number) => ({ usage: { input, output } });

describe("sub-run budgets and stats", () => {
  it("budget exhaustion in a child ends the child typed, and the parent sees it as a tool error", async () => {
    const read = spy("read");
    const { runner } = treeSetup({
      boss: [
        fauxToolCall("delegate", { task: "read everything" }, used(100, 10)),
        fauxText("The helper ran out of budget; here is what I know.", used(150, 10)),
      ],
      kid: [fauxToolCall("read", { path: "a" }, used(500, 10)), fauxText("never", used(10, 1))],
    });
    const result = await runner.runTask({
      objective: "go",
      tools: [delegate([read.tool], { budgetShare: 0.25 })],
      budget: { tokens: 2000 },
    });
    const child = result.subRuns![0]!.result;
    // The child got a quarter of the 1890 tokens left: 472. Its first call spent 510, the second was not made.
    expect(child.status).toBe("budget_exhausted");
    expect(child.terminal).toMatchObject({ code: "budget_tokens", cause: "budget" });
    expect(child.terminal.message).toContain("of 472");
    expect(read.calls).toEqual(["a"]);
    expect(result.messages[2]).toMatchObject({
      role: "toolResult",
      isError: true,
      details: { error: "sub_run_failed", status: "budget_exhausted", code: "budget_tokens" },
    });
    expect(result.status).toBe("completed");
    expect(result.stats.tokens).toBe(110 + 510 + 160);
  });

  it("a child's spend counts against the parent's budget: the parent stops at its next turn", async () => {
    const { runner, brains } = treeSetup({
      boss: [fauxToolCall("delegate", { task: "think hard" }, used(100, 10)), fauxText("never")],
      kid: [fauxText("a long answer", used(900, 100))],
    });
    const result = await runner.runTask({ objective: "go", tools: [delegate([])], budget: { tokens: 1000 } });
    expect(result.subRuns![0]!.result.status).toBe("completed");
    expect(result.status).toBe("budget_exhausted");
    expect(result.terminal.code).toBe("budget_tokens");
    expect(brains.boss.calls).toHaveLength(1);
    expect(result.stats.tokens).toBe(1110);
  });

  it("children running at once are held to the parent's budget as spent, not as it was when they started", async () => {
    const { runner } = treeSetup({
      boss: [fauxToolCall("fan_out", { n: 2 }, used(90, 10)), fauxText("done", used(10, 1))],
      kid: async () => {
        await new Promise((resolve) => setTimeout(resolve, 2));
        return fauxToolCall("noop", {}, used(200, 0));
      },
    });
    const noop = defineTool({ name: "noop", description: "does nothing", input: z.object({}), execute: () => "ok" });
    const fanOut = defineTool({
      name: "fan_out",
      description: "n helpers at once",
      input: z.object({ n: z.number() }),
      execute: async ({ n }, context) => {
        const results = await Promise.all(
          Array.from({ length: n }, (_, i) =>
            runSubTask(context, { objective: `part ${i}`, model: "kid", tools: [noop], maxTurns: 50 }),
          ),
        );
        return results.map((r) => `${r.status}: ${r.terminal.message}`).join("\n");
      },
    });
    const result = await runner.runTask({ objective: "go", tools: [fanOut], budget: { tokens: 1000 } });
    const children = result.subRuns!.map((record) => record.result);
    expect(children.map((c) => c.status)).toEqual(["budget_exhausted", "budget_exhausted"]);
    expect(children.some((c) => c.terminal.message.includes("ancestor run's budget"))).toBe(true);
    // Each child was carved the 900 tokens left; alone each would spend up to 1000. Together they
    // stop once the tree reaches the parent's 1000, with at most one call in flight per child.
    const childTokens = children.reduce((sum, c) => sum + c.stats.tokens, 0);
    expect(100 + childTokens).toBeLessThan(1000 + 2 * 200);
    expect(result.status).toBe("budget_exhausted");
  });

  it("stats and cost of a three-level tree equal the sum of every model call made", async () => {
    const shell = spy("shell", { permission: "auto" });
    const inner = delegate([shell.tool], { name: "delegate_again" });
    const { runner, billed, modelCalls } = treeSetup({
      boss: [fauxToolCall("delegate", { task: "level 1" }, used(120, 12)), fauxText("top done", used(300, 20))],
      kid: [
        fauxToolCall("delegate_again", { task: "level 2" }, used(80, 8)),
        fauxToolCall("shell", { path: "ls" }, used(60, 6)),
        fauxText("level 2 done", used(90, 9)),
        fauxText("level 1 done", used(110, 11)),
      ],
      cls: () => fauxText("<block>no</block>", used(200, 4)),
    });
    const result = await runner.runTask({ objective: "work", tools: [delegate([inner])] });
    expect(result.status).toBe("completed");
    expect(shell.calls).toEqual(["ls"]);
    const total = billed();
    expect(result.stats.tokens).toBe(total.totalTokens);
    expect(result.stats.costMicroUsd).toBe(total.cost.total);
    expect(result.stats.usage).toEqual(total);
    expect(result.stats.modelCalls + result.stats.classifierCalls).toBe(modelCalls());
    // The grandchild's shell call: its own leg, then the two ancestors' frozen classifiers.
    expect(result.stats.classifierCalls).toBe(3);
    expect(result.stats.tasks).toBe(3);
    const child = result.subRuns![0]!.result;
    expect(result.stats.children).toEqual([
      expect.objectContaining({ tokens: child.stats.tokens, costMicroUsd: child.stats.costMicroUsd, tasks: 2 }),
    ]);
    expect(result.stats.tokens - child.stats.tokens).toBe(120 + 12 + 300 + 20);
  });
});
