import { fauxRawToolCall, fauxText, fauxToolCall, type FauxResponse } from "@x/brain-faux";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../vocabulary/define-tool";
import { recorder, roles, setup, texts } from "../../test/harness";

const two = (a: string, b: string, names: [string, string] = ["look", "look"]): FauxResponse => ({
  content: [
    { type: "toolCall", name: names[0], arguments: { text: a } },
    { type: "toolCall", name: names[1], arguments: { text: b } },
  ],
});

function timedTool(name: string, readOnly: boolean, delays: Record<string, number>) {
  let running = 0;
  let peak = 0;
  const tool = defineTool({
    name,
    description: "",
    input: z.object({ text: z.string() }),
    readOnly,
    execute: async ({ text }) => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((r) => setTimeout(r, delays[text] ?? 5));
      running--;
      return `${name}:${text}`;
    },
  });
  return { tool, peak: () => peak };
}

describe("tool calls inside a run", () => {
  it("invalid arguments, an unknown tool and a throwing tool each become an error result for the model", async () => {
    const boom = defineTool({
      name: "boom",
      description: "",
      input: z.object({}),
      execute: () => {
        throw new Error("kaput");
      },
    });
    const { tool } = recorder();
    const { runner } = setup([
      fauxToolCall("echo", { text: 42 }),
      fauxToolCall("nope", {}),
      fauxToolCall("boom", {}),
      fauxRawToolCall("echo", '{"text": "unterminated'),
      fauxText("I give up gracefully"),
    ]);
    const result = await runner.runTask({ objective: "go", tools: [tool, boom] });
    expect(result.status).toBe("completed");
    const errors = result.messages.filter((m) => m.role === "toolResult");
    expect(errors.map((m) => m.role === "toolResult" && m.isError)).toEqual([true, true, true, true]);
    expect(texts(errors)).toEqual([
      expect.stringContaining("Invalid arguments"),
      expect.stringContaining('Unknown tool "nope"'),
      expect.stringContaining("kaput"),
      expect.stringContaining("not valid JSON"),
    ]);
  });

  it("read-only calls in one turn run in parallel; results stay in call order", async () => {
    const { tool, peak } = timedTool("look", true, { slow: 60, fast: 1 });
    const { runner, brain } = setup([two("slow", "fast"), fauxText("ok")]);
    const result = await runner.runTask({ objective: "go", tools: [tool] });
    expect(peak()).toBe(2);
    expect(texts(result.messages.filter((m) => m.role === "toolResult"))).toEqual(["look:slow", "look:fast"]);
    expect(brain.calls[1]!.context.messages.slice(-2).map((m) => m.role === "toolResult" && m.toolCallId)).toEqual([
      "faux_call_0_0",
      "faux_call_0_1",
    ]);
  });

  it("calls not marked read-only run one at a time", async () => {
    const { tool, peak } = timedTool("write", false, { a: 20, b: 1 });
    const { runner } = setup([two("a", "b", ["write", "write"]), fauxText("ok")]);
    const result = await runner.runTask({ objective: "go", tools: [tool] });
    expect(peak()).toBe(1);
    expect(texts(result.messages.filter((m) => m.role === "toolResult"))).toEqual(["write:a", "write:b"]);
  });

  it("a tool past its timeout is an error result and the run goes on", async () => {
    const hang = defineTool({
      name: "hang",
      description: "",
      input: z.object({}),
      timeoutMs: 20,
      execute: (_a, { signal }) => new Promise((r) => signal.addEventListener("abort", () => r("x"))),
    });
    const { runner } = setup([fauxToolCall("hang", {}), fauxText("moved on")]);
    const result = await runner.runTask({ objective: "go", tools: [hang] });
    expect(result.output).toBe("moved on");
    expect(result.messages[2]).toMatchObject({ role: "toolResult", isError: true, details: { error: "timeout" } });
  });

  it("the run's abort signal reaches a running tool and the run ends aborted", async () => {
    const controller = new AbortController();
    let toolSawAbort = false;
    const wait = defineTool({
      name: "wait",
      description: "",
      input: z.object({}),
      execute: (_a, { signal }) =>
        new Promise((resolve) => {
          setTimeout(() => controller.abort(), 5);
          signal.addEventListener("abort", () => {
            toolSawAbort = true;
            resolve("stopped");
          });
        }),
    });
    const { runner, brain } = setup([
      {
        content: [
          { type: "toolCall", name: "wait", arguments: {} },
          { type: "toolCall", name: "wait", arguments: {} },
        ],
      },
      fauxText("never"),
    ]);
    const result = await runner.runTask({ objective: "go", tools: [wait] }, { signal: controller.signal });
    expect(toolSawAbort).toBe(true);
    expect(result).toMatchObject({ status: "aborted", terminal: { code: "aborted" } });
    expect(brain.calls).toHaveLength(1);
    // Both calls are answered, so the history can be continued.
    expect(roles(result.messages)).toEqual(["user", "assistant", "toolResult", "toolResult"]);
  });
});
