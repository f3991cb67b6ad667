import {
  AssistantMessageSchema,
  assistantText,
  assistantToolCalls,
  type BrainEvent,
  type BrainStream,
  type Context,
  type Model,
} from "@x/llm-types";
import { isDegenerateCutMessage, isLengthEmpty, isPartialToolCallCut, terminalCodeOf } from "@x/terminal-cause";
import { describe, expect, it } from "vitest";
import { createFauxBrain } from "./brain";
import { fauxModel } from "./model";
import {
  fauxDelay,
  fauxDrop,
  fauxEmptyAtCap,
  fauxError,
  fauxLengthCut,
  fauxLoop,
  fauxRawToolCall,
  fauxStall,
  fauxText,
  fauxThinking,
  fauxToolCall,
} from "./response";

const model = fauxModel();
const context: Context = { systemPrompt: "Be brief.", messages: [{ role: "user", content: "Say hello." }] };

async function collect(stream: BrainStream): Promise<BrainEvent[]> {
  const events: BrainEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

describe("faux brain streaming", () => {
  it("streams text in small deltas, in order, that concatenate to the final text", async () => {
    const text = "Hello there! This reply arrives in small pieces.";
    const brain = createFauxBrain([fauxText(text)], { chunkSize: 5 });
    const stream = brain.stream(model, context);
    const events = await collect(stream);
    const message = await stream.result();

    expect(events[0]!.type).toBe("start");
    expect(events[1]).toEqual({ type: "text_start", contentIndex: 0 });
    const deltas = events.filter((e) => e.type === "text_delta");
    expect(deltas.length).toBe(Math.ceil(text.length / 5));
    expect(deltas.map((e) => e.delta).join("")).toBe(text);
    expect(events.at(-2)).toEqual({ type: "text_end", contentIndex: 0, text });
    expect(events.at(-1)).toEqual({ type: "done", message });
    expect(events.filter((e) => e.type === "done" || e.type === "error")).toHaveLength(1);

    expect(assistantText(message)).toBe(text);
    expect(message.stopReason).toBe("stop");
    expect(message.api).toBe("faux");
    expect(message.model).toBe(model.id);
    expect(AssistantMessageSchema.safeParse(message).success).toBe(true);
  });

  it("estimates usage at chars/4 and prices it with the model's cost", async () => {
    const text =
      "The quick brown fox jumps over the lazy dog while a cat naps. ".slice(0, 60).padEnd(60, ".") +
      "Pack my box with five dozen liquor jugs.";
    expect(text).toHaveLength(100);
    const brain = createFauxBrain([fauxText(text)]);
    const message = await brain.stream(model, context).result();
    expect(message.usage.output).toBe(25);
    expect(message.usage.input).toBeGreaterThan(0);
    expect(message.usage.estimated).toBe(true);
    expect(message.usage.cost.output).toBe(25 * model.cost.output);
    expect(message.usage.cost.total).toBe(message.usage.cost.input + message.usage.cost.output);
  });

  it("reports scripted provider usage instead of estimating", async () => {
    const brain = createFauxBrain([fauxText("hi", { usage: { input: 10, output: 3, cacheRead: 5 } })]);
    const { usage } = await brain.stream(model, context).result();
    expect(usage).toMatchObject({ input: 10, output: 3, cacheRead: 5, totalTokens: 18 });
    expect(usage.estimated).toBeUndefined();
  });

  it("streams thinking with its signature, then text", async () => {
    const brain = createFauxBrain([fauxThinking("Let me see.", "Answer.", { signature: "sig-1" })]);
    const stream = brain.stream(model, context);
    const types = (await collect(stream)).map((e) => e.type);
    expect(types.indexOf("thinking_end")).toBeLessThan(types.indexOf("text_start"));
    const message = await stream.result();
    expect(message.content).toEqual([
      { type: "thinking", thinking: "Let me see.", signature: "sig-1" },
      { type: "text", text: "Answer." },
    ]);
  });

  it("streams a tool call's JSON and ends toolUse with parsed arguments", async () => {
    const brain = createFauxBrain([fauxToolCall("read_file", { path: "/tmp/a.txt", lines: 3 }, { text: "Reading." })]);
    const stream = brain.stream(model, context);
    const events = await collect(stream);
    const message = await stream.result();
    const json = events
      .filter((e) => e.type === "toolcall_delta")
      .map((e) => e.delta)
      .join("");
    expect(JSON.parse(json)).toEqual({ path: "/tmp/a.txt", lines: 3 });
    expect(message.stopReason).toBe("toolUse");
    expect(assistantToolCalls(message)).toEqual([
      { type: "toolCall", id: "faux_call_0_0", name: "read_file", arguments: { path: "/tmp/a.txt", lines: 3 } },
    ]);
  });

  it("keeps malformed tool JSON raw and flags it", async () => {
    const brain = createFauxBrain([fauxRawToolCall("write", '{"path": "/a", ')]);
    const [call] = assistantToolCalls(await brain.stream(model, context).result());
    expect(call).toMatchObject({ arguments: {}, rawArguments: '{"path": "/a", ', argumentsError: "malformed_json" });
  });

  it("can stand in for another api", async () => {
    const brain = createFauxBrain([fauxText("ok")], { api: "openai-completions" });
    expect(brain.api).toBe("openai-completions");
    const message = await brain.stream(fauxModel({ api: "openai-completions" }), context).result();
    expect(message.api).toBe("openai-completions");
  });
});

describe("faux brain scripted endings", () => {
  it("an error of any kind carries its kind and retryAfterMs", async () => {
    const brain = createFauxBrain([
      fauxError("rate_limited", "slow down", { retryAfterMs: 1500 }),
      fauxError("context_overflow"),
    ]);
    const first = await brain.stream(model, context).result();
    expect(first).toMatchObject({
      stopReason: "error",
      errorKind: "rate_limited",
      errorMessage: "slow down",
      retryAfterMs: 1500,
    });
    const second = await brain.stream(model, context).result();
    expect(terminalCodeOf(second)).toBe("context_overflow");
  });

  it("an error mid-stream keeps the text that arrived", async () => {
    const brain = createFauxBrain([fauxError("overloaded", "529", { partialText: "Half an ans" })]);
    const message = await brain.stream(model, context).result();
    expect(assistantText(message)).toBe("Half an ans");
    expect(message.errorKind).toBe("overloaded");
  });

  it("a length cut with a partial tool call marks it truncated", async () => {
    const brain = createFauxBrain([
      fauxLengthCut("Writing the file.", {
        partialToolCall: { name: "write", rawArguments: '{"path":"/a","body":"lor' },
      }),
    ]);
    const message = await brain.stream(model, context).result();
    expect(message.stopReason).toBe("length");
    expect(assistantToolCalls(message)[0]).toMatchObject({
      argumentsError: "truncated",
      rawArguments: '{"path":"/a","body":"lor',
      arguments: {},
    });
    expect(isPartialToolCallCut(message)).toBe(true);
  });

  it("an empty reply at the cap is length_empty", async () => {
    const message = await createFauxBrain([fauxEmptyAtCap()]).stream(model, context).result();
    expect(message).toMatchObject({ stopReason: "error", errorKind: "length_empty" });
    expect(isLengthEmpty(message)).toBe(true);
  });

  it("text beyond request.maxTokens ends the turn at the cap with stopReason length", async () => {
    const brain = createFauxBrain([fauxText("word ".repeat(200))]);
    const message = await brain.stream(model, context, { maxTokens: 10 }).result();
    expect(message.stopReason).toBe("length");
    expect(assistantText(message)).toBe("word ".repeat(200).slice(0, 40));
  });

  it("a degenerate loop is cut by the repetition guard, keeping the prefix", async () => {
    const brain = createFauxBrain([fauxLoop("I will check the config file once more. ", { prefix: "Let me look. " })]);
    const stream = brain.stream(model, context);
    const deltas = (await collect(stream)).filter((e) => e.type === "text_delta");
    const message = await stream.result();
    expect(isDegenerateCutMessage(message)).toBe(true);
    expect(message.stopReason).toBe("error");
    expect(assistantText(message).startsWith("Let me look. I will check the config file once more.")).toBe(true);
    expect(assistantText(message).length).toBeLessThan(120);
    // Cut within a bounded number of characters, far from the cap.
    expect(deltas.map((e) => e.type === "text_delta" && e.delta).join("").length).toBeLessThan(1000);
  });

  it("with the guard off, a loop runs into the cap instead", async () => {
    const brain = createFauxBrain([fauxLoop("again ")], { guard: false });
    const message = await brain.stream(model, context, { maxTokens: 50 }).result();
    expect(message.stopReason).toBe("length");
    expect(assistantText(message)).toHaveLength(200);
  });

  it("a stall ends partialFinalized with timeout after stallTimeoutMs", async () => {
    const brain = createFauxBrain([
      fauxStall("Part of it", { partialToolCall: { name: "run", rawArguments: '{"cmd":' } }),
    ]);
    const message = await brain.stream(model, context, { stallTimeoutMs: 10 }).result();
    expect(message).toMatchObject({ stopReason: "stop", partialFinalized: true, errorKind: "timeout" });
    expect(assistantText(message)).toBe("Part of it");
    expect(assistantToolCalls(message)[0]!.argumentsError).toBe("truncated");
    expect(terminalCodeOf(message)).toBe("stream_cut");
  });

  it("a dropped connection keeps what arrived", async () => {
    const message = await createFauxBrain([fauxDrop("So far")])
      .stream(model, context)
      .result();
    expect(message).toMatchObject({ stopReason: "stop", partialFinalized: true, errorKind: "network" });
  });
});

describe("faux brain abort and timeout", () => {
  it("honours request.signal mid-stream: stopReason aborted, errorKind aborted", async () => {
    const controller = new AbortController();
    const brain = createFauxBrain([fauxText("a long reply ".repeat(50))], { chunkSize: 3 });
    const stream = brain.stream(model, context, { signal: controller.signal });
    const events: BrainEvent[] = [];
    for await (const event of stream) {
      events.push(event);
      if (event.type === "text_delta" && events.length === 5) controller.abort();
    }
    const message = await stream.result();
    expect(message).toMatchObject({ stopReason: "aborted", errorKind: "aborted" });
    expect(events.at(-1)!.type).toBe("error");
    expect(assistantText(message).length).toBeGreaterThan(0);
    expect(assistantText(message).length).toBeLessThan(30);
  });

  it("an already aborted signal ends the call at once", async () => {
    const brain = createFauxBrain([fauxText("never")]);
    const message = await brain.stream(model, context, { signal: AbortSignal.abort() }).result();
    expect(message).toMatchObject({ stopReason: "aborted", errorKind: "aborted", content: [] });
  });

  it("honours request.timeoutMs during a delay: error timeout", async () => {
    const brain = createFauxBrain([fauxDelay(5_000, fauxText("too late"))]);
    const message = await brain.stream(model, context, { timeoutMs: 20 }).result();
    expect(message).toMatchObject({ stopReason: "error", errorKind: "timeout", content: [] });
  });

  it("honours request.timeoutMs mid-stream, keeping what arrived (partialFinalized) like the real brains", async () => {
    // The first chunk goes out at once; the second waits 60 s, so only the deadline can end the call.
    const brain = createFauxBrain([fauxText("slow words")], { chunkSize: 5, chunkDelayMs: 60_000 });
    const message = await brain.stream(model, context, { timeoutMs: 30 }).result();
    expect(message).toMatchObject({ stopReason: "stop", partialFinalized: true, errorKind: "timeout" });
    expect(assistantText(message)).toBe("slow ");
  });

  it("a malformed call ends as bad_request instead of throwing, and is not recorded", async () => {
    const brain = createFauxBrain([fauxText("never")]);
    const stream = brain.stream(undefined as unknown as Model, context);
    expect(await stream.result()).toMatchObject({ stopReason: "error", errorKind: "bad_request", api: "faux" });
    expect(brain.calls).toHaveLength(0);
    expect(brain.pending).toBe(1);
  });
});

describe("faux brain script and recording", () => {
  it("records every request it got", async () => {
    const brain = createFauxBrain([fauxText("one"), fauxText("two")]);
    const ctx: Context = { messages: [{ role: "user", content: "first" }] };
    await brain.stream(model, ctx, { maxTokens: 77, reasoning: "high", cacheKey: "session-1" }).result();
    ctx.messages.push({ role: "user", content: "mutated later" });
    await brain.stream(model, ctx).result();

    expect(brain.calls).toHaveLength(2);
    expect(brain.calls[0]).toMatchObject({
      callIndex: 0,
      model,
      maxTokens: 77,
      reasoning: "high",
      cacheKey: "session-1",
    });
    expect(brain.calls[0]!.context.messages).toEqual([{ role: "user", content: "first" }]);
    expect(brain.calls[1]).toMatchObject({ callIndex: 1, maxTokens: model.maxTokens, reasoning: undefined });
    expect(brain.calls[1]!.context.messages).toHaveLength(2);
  });

  it("recordCalls bounds what calls keeps (a number keeps the latest), or keeps nothing with false", async () => {
    const bounded = createFauxBrain(() => fauxText("ok"), { recordCalls: 2 });
    for (let i = 0; i < 5; i++)
      await bounded.stream(model, { messages: [{ role: "user", content: `m${i}` }] }).result();
    expect(bounded.calls.map((call) => call.callIndex)).toEqual([3, 4]);
    expect(bounded.calls[1]!.context.messages).toEqual([{ role: "user", content: "m4" }]);
    const none = createFauxBrain(() => fauxText("ok"), { recordCalls: false });
    const first = await none.stream(model, context).result();
    const second = await none.stream(model, context).result();
    expect([assistantText(first), assistantText(second)]).toEqual(["ok", "ok"]);
    expect(none.calls).toEqual([]);
  });

  it("an exhausted queue is a typed provider error, never a hang", async () => {
    const brain = createFauxBrain([fauxText("only one")]);
    await brain.stream(model, context).result();
    const message = await brain.stream(model, context).result();
    expect(message).toMatchObject({ stopReason: "error", errorKind: "provider" });
    expect(message.errorMessage).toMatch(/faux script exhausted/);
  });

  it("push enqueues more replies; a function answers from the request", async () => {
    const brain = createFauxBrain();
    expect(brain.pending).toBe(0);
    brain.push(
      ({ context: ctx, callIndex }) => fauxText(`call ${callIndex}: ${ctx.messages.length} message(s)`),
      fauxText("second"),
    );
    expect(brain.pending).toBe(2);
    expect(assistantText(await brain.stream(model, context).result())).toBe("call 0: 1 message(s)");
    expect(assistantText(await brain.stream(model, context).result())).toBe("second");
  });

  it("a single function as the script answers every call", async () => {
    const brain = createFauxBrain(({ request }) => fauxText(`cap ${request.maxTokens ?? "default"}`));
    expect(assistantText(await brain.stream(model, context, { maxTokens: 9 }).result())).toBe("cap 9");
    expect(assistantText(await brain.stream(model, context).result())).toBe("cap default");
  });

  it("a responder that throws becomes a provider error", async () => {
    const brain = createFauxBrain([
      () => {
        throw new Error("boom");
      },
    ]);
    const message = await brain.stream(model, context).result();
    expect(message).toMatchObject({ stopReason: "error", errorKind: "provider" });
    expect(message.errorMessage).toContain("boom");
  });
});
