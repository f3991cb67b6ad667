import type { ToolCall } from "@x/llm-types";
import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../vocabulary/define-tool";
import { checkCall, executeTool, type ToolRunContext } from "./tools";

const add = defineTool({
  name: "add",
  description: "adds",
  input: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});
const call = (name: string, args: Record<string, unknown>, extra: Partial<ToolCall> = {}): ToolCall => ({
  type: "toolCall",
  id: `c-${name}`,
  name,
  arguments: args,
  ...extra,
});
const ctx = (signal = new AbortController().signal, defaultTimeoutMs = 1000): ToolRunContext => ({
  runId: "r",
  signal,
  defaultTimeoutMs,
  now: () => 1,
  onProgress: () => undefined,
});

describe("checkCall", () => {
  it("an unknown tool is an error result naming the tools there are", () => {
    const check = checkCall([add], call("sub", {}), 1);
    expect(check.ok).toBe(false);
    if (!check.ok) {
      expect(check.result.isError).toBe(true);
      expect(check.result.content[0]).toMatchObject({ text: expect.stringContaining("Available tools: add") });
    }
  });

  it("invalid arguments are an error result listing each bad field", () => {
    const check = checkCall([add], call("add", { a: "x" }), 1);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.result.content[0]).toMatchObject({ text: expect.stringMatching(/a: .*\n- b: /) });
  });

  it("truncated arguments are never passed on, even when what arrived parses", () => {
    const check = checkCall(
      [add],
      call("add", { a: 1, b: 2 }, { argumentsError: "truncated", rawArguments: '{"a":1,"b":2' }),
      1,
    );
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.result.details).toMatchObject({ error: "truncated" });
  });

  it("valid arguments come back parsed", () => {
    const check = checkCall([add], call("add", { a: 1, b: 2 }), 1);
    expect(check).toMatchObject({ ok: true, args: { a: 1, b: 2 } });
  });
});

describe("executeTool", () => {
  it("turns return values into result content: text, JSON, ToolOutput", async () => {
    expect((await executeTool(add, call("add", {}), { a: 2, b: 3 }, ctx())).content).toEqual([
      { type: "text", text: "5" },
    ]);
    const custom = defineTool({
      name: "c",
      description: "",
      input: z.object({}),
      execute: () => ({ content: [{ type: "text" as const, text: "hi" }], isError: true, details: { x: 1 } }),
    });
    expect(await executeTool(custom, call("c", {}), {}, ctx())).toMatchObject({
      isError: true,
      content: [{ text: "hi" }],
      details: { x: 1 },
    });
  });

  it("a return value with no JSON form (a BigInt, a cycle) is said so; details are always plain JSON", async () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    for (const value of [{ size: 10n }, cyclic]) {
      const odd = defineTool({ name: "odd", description: "", input: z.object({}), execute: () => value });
      const result = await executeTool(odd, call("odd", {}), {}, ctx());
      expect(result).toMatchObject({
        isError: false,
        content: [{ type: "text", text: expect.stringContaining("not JSON-serialisable") }],
      });
      expect(result.details).toBeUndefined();
    }
    const dated = defineTool({
      name: "dated",
      description: "",
      input: z.object({}),
      execute: () => ({ at: new Date(0), skip: undefined }),
    });
    expect((await executeTool(dated, call("dated", {}), {}, ctx())).details).toEqual({
      at: "1970-01-01T00:00:00.000Z",
    });
  });

  it("a ToolOutput the model cannot read is an error result, not a message that breaks the history", async () => {
    const bad = defineTool({
      name: "bad",
      description: "",
      input: z.object({}),
      execute: () => ({ content: [{ type: "text", text: 42 }] }),
    });
    expect(await executeTool(bad, call("bad", {}), {}, ctx())).toMatchObject({
      isError: true,
      details: { error: "invalid_output" },
    });
    const badDetails = defineTool({
      name: "bd",
      description: "",
      input: z.object({}),
      execute: () => ({ content: [{ type: "text" as const, text: "ok" }], details: { n: 1n } }),
    });
    const result = await executeTool(badDetails, call("bd", {}), {}, ctx());
    expect(result).toMatchObject({ isError: false, content: [{ text: "ok" }] });
    expect(result.details).toBeUndefined();
  });

  it("a throwing tool is an error result, never a throw", async () => {
    const boom = defineTool({
      name: "boom",
      description: "",
      input: z.object({}),
      execute: () => {
        throw new Error("disk on fire");
      },
    });
    const result = await executeTool(boom, call("boom", {}), {}, ctx());
    expect(result.isError).toBe(true);
    expect(result.content[0]).toMatchObject({ text: expect.stringContaining("disk on fire") });
  });

  it("a tool past its timeout is stopped: its signal aborts and the result says so", async () => {
    let sawAbort = false;
    const slow = defineTool({
      name: "slow",
      description: "",
      input: z.object({}),
      timeoutMs: 30,
      execute: (_args, { signal }) =>
        new Promise((resolve) =>
          signal.addEventListener("abort", () => {
            sawAbort = true;
            resolve("late");
          }),
        ),
    });
    const result = await executeTool(slow, call("slow", {}), {}, ctx());
    expect(result).toMatchObject({ isError: true, details: { error: "timeout", timeoutMs: 30 } });
    expect(sawAbort).toBe(true);
  });

  it("a tool that ignores its signal still cannot hold the run past the deadline", async () => {
    const deaf = defineTool({
      name: "deaf",
      description: "",
      input: z.object({}),
      execute: () => new Promise(() => undefined),
    });
    const result = await executeTool(deaf, call("deaf", {}), {}, ctx(new AbortController().signal, 20));
    expect(result.details).toMatchObject({ error: "timeout" });
  });

  it("the run's abort signal reaches the running tool", async () => {
    const controller = new AbortController();
    let reason: unknown;
    const waits = defineTool({
      name: "waits",
      description: "",
      input: z.object({}),
      execute: (_args, { signal, runId, toolCallId }) =>
        new Promise((resolve) =>
          signal.addEventListener("abort", () => {
            reason = `${runId}/${toolCallId}`;
            resolve("stopped");
          }),
        ),
    });
    const pending = executeTool(waits, call("waits", {}), {}, ctx(controller.signal, 5000));
    setTimeout(() => controller.abort(), 10);
    const result = await pending;
    expect(reason).toBe("r/c-waits");
    expect(result).toMatchObject({ isError: true, details: { error: "aborted" } });
  });

  it("a tool that reads its signal only after its deadline gets it aborted, with the deadline's reason", async () => {
    let read: ((signal: AbortSignal) => void) | undefined;
    const late = new Promise<AbortSignal>((resolve) => (read = resolve));
    const lazy = defineTool({
      name: "lazy",
      description: "",
      input: z.object({}),
      timeoutMs: 20,
      execute: (_args, context) => new Promise(() => setTimeout(() => read?.(context.signal), 60)),
    });
    const result = await executeTool(lazy, call("lazy", {}), {}, ctx());
    expect(result.details).toMatchObject({ error: "timeout" });
    const signal = await late;
    expect(signal.aborted).toBe(true);
    expect(String(signal.reason)).toMatch(/timed out after 20 ms/);
  });

  it("calls under one run signal leave at most one listener on it; its abort reaches each running call", async () => {
    const controller = new AbortController();
    for (let i = 0; i < 50; i++)
      await executeTool(add, call("add", { a: i, b: 1 }), { a: i, b: 1 }, ctx(controller.signal));
    expect(getEventListeners(controller.signal, "abort").length).toBeLessThanOrEqual(1);
    const stoppedWith: unknown[] = [];
    const waits = defineTool({
      name: "waits",
      description: "",
      input: z.object({}),
      execute: (_args, { signal }) =>
        new Promise((resolve) => signal.addEventListener("abort", () => resolve(stoppedWith.push(signal.reason)))),
    });
    const running = [1, 2, 3].map((n) =>
      executeTool(waits, call("waits", {}, { id: `w-${n}` }), {}, ctx(controller.signal, 5000)),
    );
    setTimeout(() => controller.abort("stop all"), 10);
    const results = await Promise.all(running);
    expect(results.map((r) => r.details)).toEqual([1, 2, 3].map(() => ({ error: "aborted" })));
    expect(stoppedWith).toEqual(["stop all", "stop all", "stop all"]);
  });
});
