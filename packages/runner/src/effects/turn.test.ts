import { createFauxBrain, fauxError, fauxText, fauxToolCall, type FauxScriptItem } from "@x/brain-faux";
import { emptyUsage, type AssistantMessage, type Brain } from "@x/llm-types";
import { describe, expect, it } from "vitest";
import { recorder, setup } from "../../test/harness";
import type { RunEvent } from "../vocabulary/events";

describe("retries", () => {
  it("retries a retryable failure after the provider's retry-after, counting the failed call's usage", async () => {
    const { runner, clock } = setup([
      { ...fauxError("rate_limited", "429", { retryAfterMs: 1234 }), usage: { input: 50, output: 0 } },
      fauxText("ok", { usage: { input: 50, output: 5 } }),
    ]);
    const result = await runner.runTask({ objective: "x" });
    expect(result.status).toBe("completed");
    expect(clock.sleeps).toEqual([1234]);
    expect(result.stats).toMatchObject({ retries: 1, modelCalls: 2, tokens: 105 });
  });

  it("a retry-after longer than maxDelayMs is not cut short: no early retry, the chain moves on", async () => {
    const { runner, clock, brain } = setup(
      [fauxError("rate_limited", "429", { retryAfterMs: 120_000 }), fauxText("from backup")],
      {
        retry: { maxDelayMs: 30_000 },
        roles: { default: { model: "main", fallbacks: ["backup"] } },
      },
    );
    const result = await runner.runTask({ objective: "x" });
    expect(clock.sleeps).toEqual([]);
    expect(brain.calls.map((c) => c.model.id)).toEqual(["main", "backup"]);
    expect(result).toMatchObject({ status: "completed", output: "from backup", stats: { retries: 0, modelCalls: 2 } });
  });

  it("backs off exponentially with jitter when the provider gives no hint", async () => {
    const { runner, clock } = setup([fauxError("overloaded"), fauxError("network"), fauxText("ok")], {
      retry: { baseDelayMs: 100, random: () => 0.5 },
    });
    const result = await runner.runTask({ objective: "x" });
    expect(result.status).toBe("completed");
    expect(clock.sleeps).toEqual([100, 200]);
  });

  it("retries run out ⇒ failed/model_error carrying the errorKind", async () => {
    const { runner, clock } = setup(
      [fauxError("overloaded"), fauxError("overloaded"), fauxError("overloaded", "still busy")],
      { retry: { maxRetries: 2 } },
    );
    const result = await runner.runTask({ objective: "x" });
    expect(result).toMatchObject({
      status: "failed",
      terminal: { code: "model_error", cause: "model", errorKind: "overloaded", message: "still busy" },
    });
    expect(clock.sleeps).toHaveLength(2);
    expect(result.stats.modelCalls).toBe(3);
  });

  it("an abort during the backoff ends the run aborted", async () => {
    const controller = new AbortController();
    const { runner } = setup([fauxError("overloaded"), fauxText("never")], {
      clock: { now: () => 0, sleep: () => (controller.abort(), Promise.reject(new Error("aborted"))) },
    });
    const result = await runner.runTask({ objective: "x" }, { signal: controller.signal });
    expect(result.status).toBe("aborted");
  });
});

describe("a brain that breaks its contract", () => {
  it("a throw from stream() is a provider failure: retried, then failed/model_error — never a crash", async () => {
    const { runner } = setup([], {
      brains: [
        {
          api: "faux",
          stream: () => {
            throw new Error("socket exploded");
          },
        },
      ],
    });
    const result = await runner.runTask({ objective: "x" });
    expect(result).toMatchObject({
      status: "failed",
      terminal: { code: "model_error", errorKind: "provider", message: expect.stringContaining("socket exploded") },
    });
    expect(result.stats.modelCalls).toBe(3);
  });

  it("a malformed final message (no usage, unknown stop) is a provider failure, no crash or broken park", async () => {
    const good = {
      role: "assistant",
      content: [{ type: "text", text: "hi" }],
      api: "faux",
      provider: "faux",
      model: "main",
      usage: emptyUsage(),
      stopReason: "stop",
      timestamp: 0,
    };
    const { usage: _usage, ...noUsage } = good;
    const malformed = [noUsage, { ...good, stopReason: "finished" }, { ...good, extra: true }];
    for (const bad of malformed) {
      const { runner } = setup([], {
        brains: [
          {
            api: "faux",
            stream: () => ({ result: async () => bad as never, [Symbol.asyncIterator]: async function* () {} }),
          },
        ],
      });
      const result = await runner.runTask({ objective: "x" });
      expect(result, JSON.stringify(bad)).toMatchObject({
        status: "failed",
        terminal: { code: "model_error", errorKind: "provider", message: expect.stringContaining("malformed message") },
      });
    }
  });
});

describe("the message check", () => {
  it("a brain's own copy of a built turn is checked again: only the builder's message skips the parse", async () => {
    const inner = createFauxBrain([fauxText("hi")]);
    const copying: Brain = {
      api: inner.api,
      stream: (model, context, request) => {
        const stream = inner.stream(model, context, request);
        return {
          result: async () => ({ ...(await stream.result()), extra: true }) as never,
          [Symbol.asyncIterator]: () => stream[Symbol.asyncIterator](),
        };
      },
    };
    const { runner } = setup([], { brains: [copying] });
    const result = await runner.runTask({ objective: "x" });
    expect(result).toMatchObject({
      status: "failed",
      terminal: { code: "model_error", errorKind: "provider", message: expect.stringContaining("malformed message") },
    });
  });

  it("a built turn passes through as the very message the brain returned", async () => {
    const inner = createFauxBrain([fauxText("hi")]);
    let returned: AssistantMessage | undefined;
    const keeping: Brain = {
      api: inner.api,
      stream: (model, context, request) => {
        const stream = inner.stream(model, context, request);
        return {
          result: async () => (returned = await stream.result()),
          [Symbol.asyncIterator]: () => stream[Symbol.asyncIterator](),
        };
      },
    };
    const { runner } = setup([], { brains: [keeping] });
    const result = await runner.runTask({ objective: "x" });
    expect(result.status).toBe("completed");
    expect(result.messages.at(-1)).toBe(returned);
  });
});

describe("fallback chain", () => {
  it("a non-retryable failure moves to the next model of the role, and stays there", async () => {
    const { runner, brain, notices } = setup(
      ({ model }: { model: { id: string } }) =>
        model.id === "main"
          ? fauxError("auth", "bad key")
          : brain.calls.length < 3
            ? fauxToolCall("echo", { text: "a" })
            : fauxText("from backup"),
      { roles: { default: { model: "main", fallbacks: ["backup"] } } },
    );
    const { tool } = recorder();
    const result = await runner.runTask({ objective: "x", tools: [tool] });
    expect(result.status).toBe("completed");
    expect(result.output).toBe("from backup");
    expect(brain.calls.map((c) => c.model.id)).toEqual(["main", "backup", "backup"]);
    expect(notices.find((n) => n.code === "model.fallback")).toMatchObject({
      audience: "operator",
      detail: { from: "main", to: "backup", errorKind: "auth" },
    });
    expect(result.model?.id).toBe("backup");
  });

  it("a spec.model list is a chain too; the last failure is the terminal", async () => {
    const { runner } = setup([fauxError("bad_request"), fauxError("content_filter", "refused")]);
    const result = await runner.runTask({ objective: "x", model: ["main", "backup"] });
    expect(result).toMatchObject({ status: "failed", terminal: { code: "model_error", errorKind: "content_filter" } });
    expect(result.stats.modelCalls).toBe(2);
  });
});

describe("budget", () => {
  it("tokens: checked before every model call, ends budget_exhausted", async () => {
    const { tool } = recorder();
    const { runner, brain } = setup(() => fauxToolCall("echo", { text: "a" }, { usage: { input: 60, output: 10 } }));
    const result = await runner.runTask({ objective: "x", tools: [tool], budget: { tokens: 200 }, maxTurns: 50 });
    expect(result).toMatchObject({ status: "budget_exhausted", terminal: { code: "budget_tokens", cause: "budget" } });
    expect(brain.calls).toHaveLength(3);
    expect(result.stats.tokens).toBe(210);
  });

  it("micro-dollars: the same stop on cost", async () => {
    const { tool } = recorder();
    // main costs 1 $/M input and 4 $/M output: 100 in + 100 out = 500 micro-USD a call.
    const { runner, brain } = setup(() => fauxToolCall("echo", { text: "a" }, { usage: { input: 100, output: 100 } }));
    const result = await runner.runTask({ objective: "x", tools: [tool], budget: { microUsd: 1000 }, maxTurns: 50 });
    expect(result).toMatchObject({ status: "budget_exhausted", terminal: { code: "budget_cost" } });
    expect(brain.calls).toHaveLength(2);
    expect(result.stats.costMicroUsd).toBe(1000);
  });

  it("a budget retry loop stops too: retries are model calls", async () => {
    const { runner, brain } = setup(() => ({ ...fauxError("overloaded"), usage: { input: 100, output: 0 } }), {
      retry: { maxRetries: 10 },
    });
    const result = await runner.runTask({ objective: "x", budget: { tokens: 250 } });
    expect(result.status).toBe("budget_exhausted");
    expect(brain.calls).toHaveLength(3);
  });
});

/** The faux brain, counting how many events the runner pulls from its streams. */
function countingBrain(script: FauxScriptItem[]): { brain: Brain; pulled: () => number } {
  const inner = createFauxBrain(script);
  let pulled = 0;
  const brain: Brain = {
    api: inner.api,
    stream: (model, context, request) => {
      const stream = inner.stream(model, context, request);
      return {
        result: () => stream.result(),
        [Symbol.asyncIterator]: () => {
          const events = stream[Symbol.asyncIterator]();
          return { next: () => (pulled++, events.next()) };
        },
      };
    },
  };
  return { brain, pulled: () => pulled };
}

describe("brain events", () => {
  it("runTask, with nothing listening, takes each turn from result() without reading the events", async () => {
    const { tool, calls } = recorder();
    const { brain, pulled } = countingBrain([fauxToolCall("echo", { text: "a" }), fauxText("all done here")]);
    const { runner } = setup([], { brains: [brain] });
    const result = await runner.runTask({ objective: "go", tools: [tool] });
    expect(result).toMatchObject({ status: "completed", output: "all done here", stats: { modelCalls: 2 } });
    expect(calls).toEqual([{ text: "a" }]);
    expect(pulled()).toBe(0);
  });

  it("streamTask reads every event and passes the deltas on", async () => {
    const { tool } = recorder();
    const { brain, pulled } = countingBrain([fauxToolCall("echo", { text: "a" }), fauxText("all done here")]);
    const { runner } = setup([], { brains: [brain] });
    const stream = runner.streamTask({ objective: "go", tools: [tool] });
    const events: RunEvent[] = [];
    for await (const event of stream) events.push(event);
    expect((await stream.result).status).toBe("completed");
    const text = events.flatMap((e) => (e.type === "text_delta" ? [e.delta] : []));
    expect(text.join("")).toBe("all done here");
    expect(events.some((e) => e.type === "toolcall_delta")).toBe(true);
    expect(pulled()).toBeGreaterThan(text.length);
  });
});
