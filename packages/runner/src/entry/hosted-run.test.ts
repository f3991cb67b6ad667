import { fauxDelay, fauxText, fauxToolCall } from "@x/brain-faux";
import { describe, expect, it } from "vitest";
import { runHosted } from "./hosted-run";
import { runSubTask } from "../loop/sub-run";
import type { Runner } from "../vocabulary/runner-api";
import { spy, treeSetup } from "../../test/sub-run-harness";

describe("runHosted: host code as the parent of sub-runs", () => {
  it("children started from host code roll up into the hosted run's stats, under its spans", async () => {
    const { runner, frames, billed } = treeSetup({ boss: [], kid: [fauxText("one"), fauxText("two")] });
    const hosted = await runHosted(runner, { objective: "review the change", name: "council" }, (context) =>
      Promise.all([
        runSubTask(context, { objective: "first look", model: "kid" }),
        runSubTask(context, { objective: "second look", model: "kid" }),
      ]),
    );
    expect(hosted.value.map((r) => r.output).sort()).toEqual(["one", "two"]);
    expect(hosted.stats.tasks).toBe(3);
    expect(hosted.stats.tokens).toBe(billed().totalTokens);
    expect(hosted.subRuns.map((r) => r.path[0]!.toolName)).toEqual(["council", "council"]);
    const tool = frames.find((f) => f.name === "tool_call" && f.phase === "start" && f.runId === hosted.runId)!;
    const childRuns = frames.filter((f) => f.name === "run" && f.phase === "start" && f.runId !== hosted.runId);
    expect(childRuns.map((f) => f.parentSpanId)).toEqual([tool.spanId, tool.spanId]);
    expect(frames.filter((f) => f.name === "run" && f.phase === "end" && f.runId === hosted.runId)).toHaveLength(1);
  });

  it("its budget is the tree's, its permissions are the children's floor, and a child cannot park it", async () => {
    const write = spy("write", { permission: "allow" });
    const { runner } = treeSetup({
      boss: [],
      kid: [fauxText("long answer", { usage: { input: 900, output: 200 } }), fauxToolCall("write", { path: "x" })],
    });
    const hosted = await runHosted(
      runner,
      { objective: "do two things", budget: { tokens: 1000 }, defaultPermission: "ask" },
      async (context) => {
        const first = await runSubTask(context, { objective: "think", model: "kid" });
        const second = await runSubTask(context, { objective: "write", model: "kid", tools: [write.tool] });
        return [first, second];
      },
    );
    const [first, second] = hosted.value;
    expect(first!.status).toBe("completed");
    // The tree spent its 1000 tokens in the first child: the second is refused its first call.
    expect(second!.status).toBe("budget_exhausted");
    expect(second!.terminal.code).toBe("budget_tokens");
    expect(write.calls).toEqual([]);

    const { runner: other } = treeSetup({ boss: [], kid: [fauxToolCall("write", { path: "y" })] });
    const parked = await runHosted(other, { objective: "write", defaultPermission: "ask" }, (context) =>
      runSubTask(context, { objective: "write it", model: "kid", tools: [write.tool] }),
    );
    expect(parked.value.status).toBe("parked");
    expect(write.calls).toEqual([]);
  });

  it("a signal given to runSubTask stops that child alone; a runner not made by createRunner is refused", async () => {
    const { runner } = treeSetup({ boss: [], kid: [fauxDelay(60_000, fauxText("late")), fauxText("on time")] });
    const hosted = await runHosted(runner, { objective: "two helpers" }, (context) =>
      Promise.all([
        runSubTask(context, { objective: "slow", model: "kid" }, { signal: AbortSignal.timeout(50) }),
        runSubTask(context, { objective: "fast", model: "kid" }),
      ]),
    );
    expect(hosted.value.map((r) => r.status)).toEqual(["aborted", "completed"]);
    const fake = { runTask: () => undefined } as unknown as Runner;
    await expect(runHosted(fake, { objective: "x" }, () => Promise.resolve(1))).rejects.toThrow(/createRunner/);
  });
});
