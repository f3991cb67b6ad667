import { createFauxBrain, fauxModel, fauxText, fauxToolCall } from "@x/brain-faux";
import { customApi, SchemaValidationError, usageFor } from "@x/llm-types";
import { describe, expect, it } from "vitest";
import { main, recorder, roles, setup } from "../../test/harness";
import type { RunEvent } from "../vocabulary/events";
import { RunnerConfigError } from "../vocabulary/config-error";
import { createRunner } from "./runner";

describe("runTask basics", () => {
  it("completes on a plain answer: output, new messages, stats priced from the model", async () => {
    const { runner } = setup([fauxText("Paris.", { usage: { input: 100, output: 20 } })]);
    const result = await runner.runTask({ objective: "Capital of France?" });
    expect(result.status).toBe("completed");
    expect(result.terminal).toMatchObject({ code: "completed", cause: "done" });
    expect(result.output).toBe("Paris.");
    expect(roles(result.messages)).toEqual(["user", "assistant"]);
    const priced = usageFor(main, { input: 100, output: 20 });
    expect(result.stats).toMatchObject({
      tokens: 120,
      tasks: 1,
      turns: 1,
      toolCalls: 0,
      modelCalls: 1,
      costMicroUsd: priced.cost.total,
      costUsd: priced.cost.total / 1e6,
    });
    expect(result.stats.humanReview).toEqual({ count: 0, totalWaitMs: 0, gates: [] });
    expect(result.model?.id).toBe("main");
  });

  it("runs a tool call and feeds its result back", async () => {
    const { tool, calls } = recorder();
    const { runner, brain } = setup([fauxToolCall("echo", { text: "hi" }), fauxText("done")]);
    const result = await runner.runTask({ objective: "echo hi", tools: [tool] });
    expect(result.status).toBe("completed");
    expect(calls).toEqual([{ text: "hi" }]);
    expect(roles(result.messages)).toEqual(["user", "assistant", "toolResult", "assistant"]);
    expect(brain.calls[1]!.context.messages.at(-1)).toMatchObject({
      role: "toolResult",
      content: [{ text: "echo:hi" }],
      isError: false,
    });
    expect(brain.calls[0]!.context.tools?.[0]).toMatchObject({ name: "echo", parameters: { type: "object" } });
    expect(result.stats).toMatchObject({ turns: 2, toolCalls: 1 });
  });

  it("continues a session: history in, new messages out", async () => {
    const { runner, brain } = setup([fauxText("one"), fauxText("two")]);
    const first = await runner.runTask({ objective: "first", sessionId: "s1" });
    const history = [...first.messages];
    const second = await runner.runTask({ objective: "second", history, sessionId: "s1" });
    expect(roles(second.messages)).toEqual(["user", "assistant"]);
    expect(brain.calls[1]!.context.messages.slice(0, 2)).toEqual(JSON.parse(JSON.stringify(history)));
    expect(brain.calls[1]!.cacheKey).toBe("s1");
  });

  it("an invalid spec is refused with a SchemaValidationError before anything runs", async () => {
    const { runner, brain } = setup([fauxText("x")]);
    await expect(runner.runTask({ objective: "x", maxTurns: 0 })).rejects.toThrow(SchemaValidationError);
    await expect(runner.runTask({ objective: "x", tools: [{ name: "fake" } as never] })).rejects.toThrow(/defineTool/);
    // A misspelt permission key must not silently leave every tool on `allow`.
    await expect(runner.runTask({ objective: "x", defaultPermision: "auto" } as never)).rejects.toThrow(
      SchemaValidationError,
    );
    await expect(runner.runTask({ objective: "x", permissions: { shell: "Auto" } } as never)).rejects.toThrow(
      SchemaValidationError,
    );
    // A timer past 2^31 - 1 ms fires at once: every tool would "time out".
    await expect(runner.runTask({ objective: "x", toolTimeoutMs: 2 ** 31 })).rejects.toThrow(SchemaValidationError);
    expect(brain.calls).toHaveLength(0);
  });

  it("a model the catalog does not hold ends failed/no_model, typed", async () => {
    const { runner } = setup([]);
    const result = await runner.runTask({ objective: "x", model: "gpt-9" });
    expect(result).toMatchObject({ status: "failed", terminal: { code: "no_model", cause: "config" } });
  });

  it("a model whose api has no brain ends failed/no_brain", async () => {
    const { runner } = setup([]);
    const result = await runner.runTask({ objective: "x", model: { ...main, api: customApi("nowhere") } });
    expect(result).toMatchObject({ status: "failed", terminal: { code: "no_brain" } });
  });

  it("a catalog model whose api no brain speaks is refused by createRunner (config.no_brain), naming it", () => {
    const brain = createFauxBrain([fauxText("never")]);
    const models = { main: fauxModel(), typo: { ...fauxModel(), id: "other", api: customApi("openai-chat") } };
    const made = () => createRunner({ brains: [brain], models });
    expect(made).toThrow(RunnerConfigError);
    expect(made).toThrow(
      /models\.typo \(api "openai-chat"\): no brain registered for that api; brains are registered for "faux"/,
    );
    expect(() => createRunner({ brains: [brain], models: { main: fauxModel() } })).not.toThrow();
    expect(brain.calls).toHaveLength(0);
  });

  it("runs on a role: spec.role resolves through the roles and tiers", async () => {
    const { runner, brain } = setup([fauxText("ok")], { roles: { default: "main", advisor: "backup" } });
    await runner.runTask({ objective: "x", role: "advisor" });
    expect(brain.calls[0]!.model.id).toBe("backup");
    expect(runner.resolveModel({ role: "advisor" })).toMatchObject({
      model: { id: "backup" },
      via: "role",
      role: "advisor",
    });
    expect(runner.resolveModel({})).toMatchObject({ model: { id: "main" }, via: "role" });
  });
});

describe("abort", () => {
  it("an abort during a model call ends the run aborted, typed", async () => {
    const controller = new AbortController();
    // Aborted from inside the call, so the abort lands during it on any machine, however loaded.
    const { runner, brain } = setup([() => (controller.abort(), fauxText("too late", { delayMs: 60_000 }))]);
    const result = await runner.runTask({ objective: "x" }, { signal: controller.signal });
    expect(result).toMatchObject({ status: "aborted", terminal: { code: "aborted" } });
    expect(brain.calls).toHaveLength(1);
  });

  it("an already-aborted signal makes no model call", async () => {
    const { runner, brain } = setup([fauxText("x")]);
    const result = await runner.runTask({ objective: "x" }, { signal: AbortSignal.abort() });
    expect(result.status).toBe("aborted");
    expect(brain.calls).toHaveLength(0);
  });
});

describe("streamTask", () => {
  it("yields typed events in order and ends with run_end carrying the result", async () => {
    const { tool } = recorder();
    const { runner } = setup([fauxToolCall("echo", { text: "a" }), fauxText("all done here")]);
    const stream = runner.streamTask({ objective: "go", tools: [tool] });
    const events: RunEvent[] = [];
    for await (const event of stream) events.push(event);
    const result = await stream.result;
    const kinds = events.map((e) => e.type).filter((t, i, all) => t !== all[i - 1]);
    expect(kinds).toEqual([
      "run_start",
      "turn_start",
      "toolcall_delta",
      "turn_end",
      "tool_call",
      "tool_result",
      "turn_start",
      "text_delta",
      "turn_end",
      "run_end",
    ]);
    const deltas = events
      .filter((e): e is Extract<RunEvent, { type: "text_delta" }> => e.type === "text_delta")
      .map((e) => e.delta);
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join("")).toBe("all done here");
    expect(events.at(-1)).toEqual({ type: "run_end", result });
  });
});

describe("streamTask that fails", () => {
  it("ends its events by throwing the error, and leaves nothing unhandled when only events are read", async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      const { runner } = setup([fauxText("x")]);
      const stream = runner.streamTask({ objective: "x", maxTurns: 0 });
      const seen: string[] = [];
      await expect(
        (async () => {
          for await (const event of stream) seen.push(event.type);
        })(),
      ).rejects.toThrow(SchemaValidationError);
      expect(seen).toEqual([]);
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
      await expect(stream.result).rejects.toThrow(SchemaValidationError);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });
});

describe("observers never change an outcome", () => {
  it("a throwing notice sink, tracer and tool-result observer leave the result as it was", async () => {
    const { tool } = recorder();
    const script = () => [fauxToolCall("echo", { text: "a" }), fauxText("fine")];
    const calm = await setup(script()).runner.runTask({ objective: "go", tools: [tool], runId: "r1" });
    const noisy = await setup(script(), {
      onNotice: () => {
        throw new Error("sink down");
      },
      tracer: {
        frame: () => {
          throw new Error("tracer down");
        },
      },
    }).runner.runTask({
      objective: "go",
      tools: [tool],
      runId: "r1",
      onToolResult: () => {
        throw new Error("observer down");
      },
    });
    expect(noisy.status).toBe(calm.status);
    expect(noisy.output).toBe(calm.output);
    expect(noisy.messages.map((m) => m.role)).toEqual(calm.messages.map((m) => m.role));
  });

  it("an async notice sink or tracer that rejects is contained too: no unhandled rejection, same outcome", async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      const { tool } = recorder();
      const cls = fauxModel({ id: "cls", api: "faux-cls", baseUrl: "faux://cls" });
      // An async observer, as a host may well write one; typed as the void sink it is passed as.
      const rejecting = (async () => {
        throw new Error("async observer down");
      }) as unknown as () => void;
      const { runner } = setup([fauxToolCall("echo", { text: "a" }), fauxText("fine")], {
        brains: [
          createFauxBrain([fauxToolCall("echo", { text: "a" }), fauxText("fine")]),
          createFauxBrain([fauxText("<block>no</block>")], { api: "faux-cls" }),
        ],
        models: { main, cls },
        roles: { default: "main", classifier: "cls" },
        onNotice: rejecting,
        tracer: { frame: rejecting },
      });
      const result = await runner.runTask({ objective: "go", tools: [tool], defaultPermission: "auto" });
      expect(result.status).toBe("completed");
      // Give any stray rejection the turns it needs to surface.
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });
});
