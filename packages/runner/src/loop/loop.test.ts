import { fauxEmptyAtCap, fauxLengthCut, fauxLoop, fauxText, fauxToolCall, type FauxResponse } from "@x/brain-faux";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { recorder, roles, setup, texts } from "../../test/harness";

const empty: FauxResponse = { content: [], end: { type: "stop" } };

describe("max turns", () => {
  it("ends with a typed terminal, not a throw", async () => {
    const { tool } = recorder();
    const { runner } = setup(({ callIndex }) => fauxToolCall("echo", { text: `n${callIndex}` }));
    const result = await runner.runTask({ objective: "loop", tools: [tool], maxTurns: 4 });
    expect(result.status).toBe("max_turns");
    expect(result.terminal).toMatchObject({ code: "max_turns", cause: "guard" });
    expect(result.stats.turns).toBe(4);
    expect(roles(result.messages).at(-1)).toBe("toolResult");
  });
});

describe("loop guard", () => {
  it("the same call N times in a row earns a note, the next one ends the run stuck", async () => {
    const { tool, calls } = recorder();
    const { runner } = setup(() => fauxToolCall("echo", { text: "same" }));
    const result = await runner.runTask({ objective: "loop", tools: [tool], maxRepeatedCalls: 3, maxTurns: 10 });
    expect(result.status).toBe("stuck");
    expect(result.terminal).toMatchObject({ code: "loop_detected", cause: "guard" });
    expect(calls).toHaveLength(3);
    const results = result.messages.filter((m) => m.role === "toolResult");
    expect(texts(results)[2]).toContain("identical arguments 3 times");
    expect(texts(results)[1]).not.toContain("identical");
    // The fourth call is answered (not run), so the history stays well-formed.
    expect(results).toHaveLength(4);
    expect(results[3]).toMatchObject({ isError: true });
  });
});

describe("cut at max tokens with a partial tool call", () => {
  it("never runs the truncated call; asks again once with more room", async () => {
    const { tool, calls } = recorder();
    const { runner, brain, notices } = setup([
      fauxLengthCut("", { partialToolCall: { name: "echo", rawArguments: '{"text":"rm -rf /tmp/a' } }),
      fauxToolCall("echo", { text: "ok" }),
      fauxText("done"),
    ]);
    const result = await runner.runTask({ objective: "go", tools: [tool], maxTokens: 200 });
    expect(result.status).toBe("completed");
    expect(calls).toEqual([{ text: "ok" }]);
    expect(brain.calls.map((c) => c.maxTokens)).toEqual([200, 400, 400]);
    // The cut turn is dropped: the re-ask sends the same prefix.
    expect(brain.calls[1]!.context.messages).toEqual(brain.calls[0]!.context.messages);
    expect(notices.map((n) => n.code)).toContain("run.max_tokens_retry");
    expect(result.stats.modelCalls).toBe(3);
  });

  it("cut again ⇒ failed/max_tokens, and still nothing ran", async () => {
    const { tool, calls } = recorder();
    const cut = () => fauxLengthCut("", { partialToolCall: { name: "echo", rawArguments: '{"text":"x' } });
    const { runner } = setup([cut(), cut()]);
    const result = await runner.runTask({ objective: "go", tools: [tool], maxTokens: 200 });
    expect(result).toMatchObject({ status: "failed", terminal: { code: "max_tokens", cause: "model" } });
    expect(calls).toEqual([]);
  });

  it("no more room than the model's cap ⇒ ends at once", async () => {
    const { runner, brain } = setup([fauxEmptyAtCap(), fauxText("never")]);
    const result = await runner.runTask({ objective: "go" });
    expect(result.terminal.code).toBe("max_tokens");
    expect(brain.calls).toHaveLength(1);
  });
});

describe("empty final answer", () => {
  it("after tool calls: re-asked once, then the answer completes the run", async () => {
    const { tool } = recorder();
    const { runner } = setup([fauxToolCall("echo", { text: "a" }), empty, fauxText("the answer")]);
    const result = await runner.runTask({ objective: "go", tools: [tool] });
    expect(result.status).toBe("completed");
    expect(result.output).toBe("the answer");
    expect(roles(result.messages)).toEqual(["user", "assistant", "toolResult", "assistant", "user", "assistant"]);
  });

  it("empty twice ⇒ failed/empty_answer", async () => {
    const { tool } = recorder();
    const { runner } = setup([fauxToolCall("echo", { text: "a" }), empty, empty]);
    const result = await runner.runTask({ objective: "go", tools: [tool] });
    expect(result).toMatchObject({ status: "failed", terminal: { code: "empty_answer" } });
  });
});

describe("degenerate repetition", () => {
  it("a cut stamped by the brain is recovered once with a nudge", async () => {
    const { runner } = setup([fauxLoop("all work and no play "), fauxText("Recovered.")]);
    const result = await runner.runTask({ objective: "write" });
    expect(result.status).toBe("completed");
    expect(result.output).toBe("Recovered.");
    expect(result.messages[1]).toMatchObject({ role: "assistant", errorKind: "degenerate_repetition" });
    expect(result.messages[2]).toMatchObject({ role: "user" });
  });

  it("twice ⇒ failed/degenerate_repetition", async () => {
    const { runner } = setup([fauxLoop("la "), fauxLoop("la ")]);
    const result = await runner.runTask({ objective: "sing" });
    expect(result).toMatchObject({
      status: "failed",
      terminal: { code: "degenerate_repetition", errorKind: "degenerate_repetition" },
    });
  });
});

describe("structured output", () => {
  const schema = z.object({ city: z.string(), population: z.number() });
  it("parses the final answer into `structured`, asking for the schema in the system prompt", async () => {
    const { runner, brain } = setup([fauxText('```json\n{"city":"Paris","population":2100000}\n```')]);
    const result = await runner.runTask({ objective: "x", output: schema, systemPrompt: "Be brief." });
    expect(result.structured).toEqual({ city: "Paris", population: 2100000 });
    expect(brain.calls[0]!.context.systemPrompt).toMatch(/^Be brief\.\n\n.*"population"/s);
  });

  it("an answer off the schema is re-asked once, then failed/output_invalid", async () => {
    const { runner } = setup([fauxText('{"city":"Paris"}'), fauxText("Paris, about two million")]);
    const result = await runner.runTask({ objective: "x", output: schema });
    expect(result).toMatchObject({ status: "failed", terminal: { code: "output_invalid", cause: "output" } });
    expect(texts(result.messages)[2]).toContain("population");
  });
});

describe("onToolResult observer", () => {
  it("may stop the run early with its own code; the run ends stuck", async () => {
    const { tool } = recorder();
    const { runner } = setup(() => fauxToolCall("echo", { text: "fail" }));
    const seen: number[] = [];
    const result = await runner.runTask({
      objective: "go",
      tools: [tool],
      maxTurns: 10,
      onToolResult: (info) => {
        seen.push(info.index);
        return info.index >= 2 ? { stop: { code: "teacher.stuck", message: "same failure twice" } } : undefined;
      },
    });
    expect(seen).toEqual([1, 2]);
    expect(result).toMatchObject({
      status: "stuck",
      terminal: {
        code: "observer_stop",
        cause: "observer",
        observerCode: "teacher.stuck",
        message: "same failure twice",
      },
    });
  });
});
