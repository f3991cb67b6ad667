import { fauxDelay, fauxError, fauxText, fauxToolCall } from "@x/brain-faux";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../vocabulary/define-tool";
import type { RunEvent } from "../vocabulary/events";
import { runSubTask, SubRunError } from "./sub-run";
import { delegate, spy, treeSetup } from "../../test/sub-run-harness";
import { texts } from "../../test/harness";

describe("sub-runs", () => {
  it("a sub-run tool runs the child with typed arguments; its answer is the tool result, its result kept", async () => {
    const read = spy("read");
    const { runner, brains } = treeSetup({
      boss: [fauxToolCall("delegate", { task: "read the config" }), fauxText("The helper says: port 8080.")],
      kid: [fauxToolCall("read", { path: "config.json" }), fauxText("port 8080")],
    });
    const stream = runner.streamTask({ objective: "what port?", tools: [delegate([read.tool])] });
    const events: RunEvent[] = [];
    for await (const event of stream) events.push(event);
    const result = await stream.result;
    expect(result.status).toBe("completed");
    expect(read.calls).toEqual(["config.json"]);
    expect(texts(result.messages)).toEqual(["what port?", "call:delegate", "port 8080", "The helper says: port 8080."]);
    // The child's conversation is its own: objective first, the parent's history is not in it.
    expect(texts(brains.kid.calls[0]!.context.messages)).toEqual(["read the config"]);
    expect(result.subRuns).toHaveLength(1);
    const [child] = result.subRuns!;
    expect(child!.path).toEqual([{ runId: result.runId, toolName: "delegate", toolCallId: "faux_call_0_0" }]);
    expect(child!.result.status).toBe("completed");
    expect(texts(child!.result.messages)).toEqual([
      "read the config",
      "call:read",
      "read done: config.json",
      "port 8080",
    ]);
    expect(result.stats.children).toEqual([
      expect.objectContaining({ runId: child!.result.runId, toolName: "delegate", status: "completed", tasks: 1 }),
    ]);
    expect(result.stats.tasks).toBe(2);
    expect(result.stats.modelCalls).toBe(4);
    const childEvents = events.filter((e) => e.type === "sub_run");
    expect(childEvents[0]).toMatchObject({ path: child!.path, event: { type: "run_start", model: "kid" } });
    expect(childEvents.at(-1)).toMatchObject({ event: { type: "run_end" } });
  });

  it("a tool's execute runs children itself; at most maxConcurrent run at once", async () => {
    let running = 0;
    let peak = 0;
    const { runner } = treeSetup(
      {
        boss: [fauxToolCall("fan_out", { topics: ["a", "b", "c"] }), fauxText("merged")],
        kid: async ({ context }) => {
          running += 1;
          peak = Math.max(peak, running);
          await new Promise((resolve) => setTimeout(resolve, 5));
          running -= 1;
          return fauxText(`notes on ${JSON.stringify(context.messages[0]!.content)}`);
        },
      },
      { subRuns: { maxConcurrent: 2 } },
    );
    const fanOut = defineTool({
      name: "fan_out",
      description: "research topics in parallel",
      input: z.object({ topics: z.array(z.string()) }),
      execute: async ({ topics }, context) => {
        const results = await Promise.all(
          topics.map((topic) => runSubTask(context, { objective: topic, model: "kid" })),
        );
        return results.map((r) => r.output).join(" | ");
      },
    });
    const result = await runner.runTask({ objective: "research", tools: [fanOut] });
    expect(result.status).toBe("completed");
    expect(peak).toBe(2);
    expect(texts(result.messages)[2]).toBe('notes on "a" | notes on "b" | notes on "c"');
    expect(result.stats.tasks).toBe(4);
    expect(result.subRuns).toHaveLength(3);
  });

  it("runSubTask outside a tool's execute is a typed error", async () => {
    const made = new AbortController();
    await expect(
      runSubTask(
        {
          signal: made.signal,
          runId: "r",
          toolCallId: "c",
          toolName: "t",
          idempotencyKey: "r:c",
          progress: () => undefined,
          elicit: () => Promise.resolve({ action: "decline" }),
        },
        { objective: "x" },
      ),
    ).rejects.toMatchObject({ code: "no_parent" });
    expect(SubRunError.name).toBe("SubRunError");
  });

  it("a child that fails ends as a typed tool error the parent model reads and reacts to", async () => {
    const { runner, brains } = treeSetup(
      {
        boss: [fauxToolCall("delegate", { task: "do it" }), fauxText("The helper failed; I will do it myself.")],
        kid: [fauxError("auth", "bad key")],
      },
      { retry: { maxRetries: 0 } },
    );
    const result = await runner.runTask({ objective: "go", tools: [delegate([])] });
    expect(result.status).toBe("completed");
    const toolResult = result.messages[2]!;
    expect(toolResult).toMatchObject({
      role: "toolResult",
      isError: true,
      details: { error: "sub_run_failed", status: "failed", code: "model_error" },
    });
    expect(texts([toolResult])[0]).toContain("The sub-task ended failed (model_error)");
    // The parent model saw the error text in its next call.
    expect(JSON.stringify(brains.boss.calls[1]!.context.messages)).toContain("The sub-task ended failed");
    expect(result.stats.children![0]).toMatchObject({ status: "failed", code: "model_error" });
  });

  it("the depth limit refuses a child past it, as a typed tool error", async () => {
    const inner = delegate([], { name: "delegate_again" });
    const { runner } = treeSetup(
      {
        boss: [fauxToolCall("delegate", { task: "go deeper" }), fauxText("stopped")],
        kid: [fauxToolCall("delegate_again", { task: "deeper still" }), fauxText("could not go deeper")],
      },
      { subRuns: { maxDepth: 1 } },
    );
    const result = await runner.runTask({ objective: "go", tools: [delegate([inner])] });
    expect(result.status).toBe("completed");
    const child = result.subRuns![0]!.result;
    expect(child.messages[2]).toMatchObject({
      isError: true,
      details: { error: "sub_run_refused", code: "depth_limit" },
    });
    expect(result.stats.tasks).toBe(2);
  });

  it("a bad limit is refused when the runner is made", () => {
    expect(() => treeSetup({ boss: [] }, { subRuns: { maxDepth: 0 } })).toThrow(/subRuns/);
    expect(() => treeSetup({ boss: [] }, { subRuns: { maxDepht: 2 } as never })).toThrow(/subRuns/);
  });

  it("aborting the parent aborts the running child", async () => {
    const controller = new AbortController();
    const { runner } = treeSetup({
      boss: [fauxToolCall("delegate", { task: "slow" }), fauxText("never")],
      kid: [fauxDelay(10_000, fauxText("too late"))],
    });
    const pending = runner.runTask({ objective: "go", tools: [delegate([])] }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    const result = await pending;
    expect(result.status).toBe("aborted");
    expect(result.subRuns?.[0]?.result.status).toBe("aborted");
  });
});
