import { assistantText, type Message } from "@x/llm-types";
import { describe, expect, it } from "vitest";
import {
  framesBeforeFinish,
  framesThrough,
  runOnWire,
  WIRE_KEY,
  WIRES,
  type WireAnswer,
  type WireTurn,
  type WireUnderTest,
} from "../../test/wires";
import type { TaskSpec } from "../vocabulary/types";

// On both real brains against their loopback servers: a stream the provider never finished is
// retried, not answered from; hostile tool arguments never reach a tool; an echoed key is scrubbed.

const CUT_TEXT: WireTurn = { text: ["The answer is ", "fort", "y-two."] };
const WRITE: WireTurn = {
  text: ["Writing it down. "],
  tool: { id: "call_1", name: "write", input: { path: "notes.txt", text: "hello world" } },
};

const allText = (messages: readonly Message[]) =>
  messages.map((m) => (m.role === "assistant" ? assistantText(m) : "")).join("|");

/** The run on `wire`, its server answering by request number. */
const run = (
  wire: WireUnderTest,
  answers: (index: number) => WireAnswer,
  tools = false,
  spec: Partial<TaskSpec> = {},
) => runOnWire(wire, (_request, index) => answers(index), { tools, spec });

describe.each(WIRES)("a cut stream on $name", (wire) => {
  it("a reset mid-text is retried as the same request, and the finished answer is the output", async () => {
    const { result, bodies } = await run(wire, (index) =>
      index === 0
        ? {
            wire: { kind: "sse", frames: framesThrough(wire.frames(CUT_TEXT, {} as never), "fort"), ending: "destroy" },
          }
        : { turn: { text: ["It is 42."] } },
    );
    expect(result).toMatchObject({ status: "completed", output: "It is 42.", stats: { retries: 1, modelCalls: 2 } });
    expect(bodies).toHaveLength(2);
    expect(bodies[1]).toEqual(bodies[0]);
    // The cut turn is dropped, not kept: the history holds only the finished reply.
    expect(allText(result.messages)).not.toContain("fort");
  });

  it("a reset inside a tool call asks again with the same cap (no max_tokens doubling), runs it once", async () => {
    const { result, bodies, calls } = await run(
      wire,
      (index) =>
        index === 0
          ? {
              wire: { kind: "sse", frames: framesThrough(wire.frames(WRITE, {} as never), "notes"), ending: "destroy" },
            }
          : index === 1
            ? { turn: WRITE }
            : { turn: { text: ["Done."] } },
      true,
    );
    expect(result).toMatchObject({ status: "completed", output: "Done." });
    expect(calls).toEqual([{ text: "hello world" }]);
    const cap = (body: Record<string, unknown>) => body.max_tokens ?? body.max_completion_tokens;
    expect(bodies.slice(0, 2).map(cap)).toEqual([1000, 1000]);
  });

  it("a complete tool call then a reset: not run from the cut turn; it runs once from the retry", async () => {
    const { result, calls } = await run(
      wire,
      (index) =>
        index === 0
          ? { wire: { kind: "sse", frames: framesBeforeFinish(wire.frames(WRITE, {} as never)), ending: "destroy" } }
          : index === 1
            ? { turn: WRITE }
            : { turn: { text: ["Done."] } },
      true,
    );
    expect(result).toMatchObject({ status: "completed", output: "Done.", stats: { retries: 1, toolCalls: 1 } });
    expect(calls).toHaveLength(1);
  });

  it("a key echoed back base64-encoded (a Basic credential) is redacted from the run's terminal", async () => {
    const echoed = Buffer.from(`user:${WIRE_KEY}`).toString("base64");
    const { result } = await run(wire, () => ({
      error: { status: 400, message: `invalid credential: Basic ${echoed} (raw ${WIRE_KEY})` },
    }));
    expect(result.terminal).toMatchObject({ code: "model_error", errorKind: "bad_request" });
    expect(result.terminal.message).toContain("[redacted]");
    expect(result.terminal.message).not.toContain(WIRE_KEY);
    expect(result.terminal.message).not.toContain(echoed.slice(8, 24));
  });

  it("call arguments 5,000 levels deep are refused as bad JSON: the tool does not run, the run goes on", async () => {
    const deep = `{"text":${'{"a":'.repeat(5000)}1${"}".repeat(5000)}}`;
    const { result, calls } = await run(
      wire,
      (index) =>
        index === 0
          ? { turn: { tool: { id: "call_1", name: "write", input: deep } } }
          : { turn: { text: ["Could not write."] } },
      true,
    );
    expect(result).toMatchObject({ status: "completed", output: "Could not write." });
    expect(calls).toEqual([]);
    const answered = result.messages.find((m) => m.role === "toolResult");
    expect(answered).toMatchObject({ isError: true, details: { error: "malformed_json" } });
  });

  it("a dead endpoint spends nothing from the budget: the estimate of calls never served is kept apart", async () => {
    const { result, bodies } = await run(wire, () => ({ error: { status: 500, message: "down" } }), false, {
      budget: { tokens: 1 },
    });
    // Every retry happened (the budget did not stop them) and the run ends on what failed.
    expect(bodies).toHaveLength(3);
    expect(result).toMatchObject({ status: "failed", terminal: { code: "model_error", errorKind: "provider" } });
    expect(result.stats).toMatchObject({ tokens: 0, costMicroUsd: 0, modelCalls: 3 });
    expect(result.stats.unbilled?.totalTokens).toBeGreaterThan(0);
    expect(result.stats.unbilled?.estimated).toBe(true);
  });

  it("a stream the provider served then cut counts against the budget: providers bill what they stream", async () => {
    const { result } = await run(
      wire,
      () => ({
        wire: { kind: "sse", frames: framesThrough(wire.frames(CUT_TEXT, {} as never), "fort"), ending: "destroy" },
      }),
      false,
      { budget: { tokens: 1 } },
    );
    expect(result).toMatchObject({ status: "budget_exhausted", terminal: { code: "budget_tokens" } });
    expect(result.stats.tokens).toBeGreaterThan(0);
    expect(result.stats.modelCalls).toBe(1);
  });
});
