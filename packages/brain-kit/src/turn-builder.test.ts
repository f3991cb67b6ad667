import {
  AssistantMessageSchema,
  EventStream,
  assistantText,
  defineModel,
  type BrainEvent,
  type Context,
  customApi,
} from "@x/llm-types";
import { describe, expect, it } from "vitest";
import { isDegenerateCutMessage, isLengthEmpty, isPartialToolCallCut, terminalCodeOf } from "@x/terminal-cause";
import { TurnBuilder, type TurnBuilderOptions } from "./turn-builder";

const model = defineModel({
  id: "test-model",
  api: customApi("test-api"),
  provider: "test",
  baseUrl: "http://127.0.0.1:1",
  cost: { input: 2, output: 8, cacheRead: 0.5, cacheWrite: 2.5 },
  contextWindow: 100_000,
  maxTokens: 1000,
});

/** A builder over a real EventStream, plus the events it pushed so far. */
function setup(options: Partial<TurnBuilderOptions> = {}) {
  const stream = new EventStream();
  const events: BrainEvent[] = [];
  const turn = new TurnBuilder({ model, stream: { push: (e) => (events.push(e), stream.push(e)) }, ...options });
  return { turn, events, stream };
}

const terminal = (events: BrainEvent[]) => events.filter((e) => e.type === "done" || e.type === "error");

describe("TurnBuilder streaming", () => {
  it("emits start, block start/delta/end and one done, and builds the message", async () => {
    const { turn, events, stream } = setup({ now: () => 1234 });
    turn.start();
    turn.thinkingDelta("Hmm. ");
    turn.thinkingDelta("Right.", "sig-a");
    turn.textDelta("Hello");
    turn.textDelta(", world");
    turn.toolCallStart("call_1", "read");
    turn.toolCallDelta('{"path":');
    turn.toolCallDelta('"/a"}');
    turn.responseId("resp_1");
    const message = turn.finish("toolUse");

    expect(events.map((e) => e.type)).toEqual([
      "start",
      "thinking_start",
      "thinking_delta",
      "thinking_delta",
      "thinking_end",
      "text_start",
      "text_delta",
      "text_delta",
      "text_end",
      "toolcall_start",
      "toolcall_delta",
      "toolcall_delta",
      "toolcall_end",
      "done",
    ]);
    expect(events.find((e) => e.type === "toolcall_end")).toMatchObject({
      contentIndex: 2,
      toolCall: { arguments: { path: "/a" } },
    });
    expect(message).toMatchObject({
      role: "assistant",
      api: customApi("test-api"),
      provider: "test",
      model: "test-model",
      stopReason: "toolUse",
      responseId: "resp_1",
      timestamp: 1234,
      content: [
        { type: "thinking", thinking: "Hmm. Right.", signature: "sig-a" },
        { type: "text", text: "Hello, world" },
        { type: "toolCall", id: "call_1", name: "read", arguments: { path: "/a" } },
      ],
    });
    expect(AssistantMessageSchema.safeParse(message).success).toBe(true);
    expect(await stream.result()).toBe(message);
  });

  it("start is pushed once, implicitly by the first delta", () => {
    const { turn, events } = setup();
    turn.textDelta("a");
    turn.start();
    expect(events.filter((e) => e.type === "start")).toHaveLength(1);
    expect(events[0]!.type).toBe("start");
  });

  it("a stop carrying tool calls becomes toolUse", () => {
    const { turn } = setup();
    turn.toolCallStart("c", "ls");
    expect(turn.finish("stop").stopReason).toBe("toolUse");
  });

  it("thinkingSignature lands on the last thinking block; redactedThinking is kept opaque", () => {
    const { turn } = setup();
    turn.thinkingDelta("plan");
    turn.textDelta("x");
    turn.thinkingSignature("late-sig");
    turn.redactedThinking("ENCRYPTED");
    const message = turn.finish("stop");
    expect(message.content[0]).toEqual({ type: "thinking", thinking: "plan", signature: "late-sig" });
    expect(message.content[2]).toEqual({ type: "thinking", thinking: "ENCRYPTED", redacted: true });
  });
});

describe("TurnBuilder tool-call arguments", () => {
  it("malformed JSON keeps rawArguments, flags malformed_json, arguments {}", () => {
    const { turn } = setup();
    turn.toolCallStart("c1", "write");
    turn.toolCallDelta('{"path": "/a", oops}');
    const message = turn.finish("toolUse");
    expect(message.content[0]).toEqual({
      type: "toolCall",
      id: "c1",
      name: "write",
      arguments: {},
      rawArguments: '{"path": "/a", oops}',
      argumentsError: "malformed_json",
    });
  });

  it("JSON that is not an object is malformed too; empty arguments are {}", () => {
    const { turn } = setup();
    turn.toolCallStart("c1", "a");
    turn.toolCallDelta("[1,2]");
    turn.toolCallStart("c2", "b");
    const message = turn.finish("toolUse");
    expect(message.content[0]).toMatchObject({ argumentsError: "malformed_json", rawArguments: "[1,2]" });
    expect(message.content[1]).toEqual({ type: "toolCall", id: "c2", name: "b", arguments: {} });
  });

  it("a length stop with an open tool call marks it truncated", () => {
    const { turn } = setup();
    turn.textDelta("Writing it now.");
    turn.toolCallStart("c1", "write");
    turn.toolCallDelta('{"path": "/a", "body": "lorem ip');
    const message = turn.finish("length");
    expect(message.stopReason).toBe("length");
    expect(message.content[1]).toMatchObject({
      arguments: {},
      rawArguments: '{"path": "/a", "body": "lorem ip',
      argumentsError: "truncated",
    });
    expect(isPartialToolCallCut(message)).toBe(true);
    expect(terminalCodeOf(message)).toBe("length");
  });

  it("a tool call closed before the length stop keeps its parsed arguments", () => {
    const { turn } = setup();
    turn.toolCallStart("c1", "ls");
    turn.toolCallDelta("{}");
    turn.textDelta("and then some text that was cut");
    const message = turn.finish("length");
    expect(message.content[0]).toEqual({ type: "toolCall", id: "c1", name: "ls", arguments: {} });
  });
});

describe("TurnBuilder enders", () => {
  it("length_empty: an empty turn stopped at the cap is an error", () => {
    const { turn, events } = setup({ maxTokens: 64 });
    turn.thinkingDelta("only thinking, no answer");
    turn.textDelta("   ");
    const message = turn.finish("length");
    expect(message).toMatchObject({ stopReason: "error", errorKind: "length_empty" });
    expect(message.errorMessage).toContain("64 tokens");
    expect(isLengthEmpty(message)).toBe(true);
    expect(terminal(events)).toEqual([{ type: "error", message }]);
  });

  it("fail keeps what arrived, stamps the kind and retryAfterMs, scrubs secrets", () => {
    const { turn, events } = setup({ secrets: ["sk-live-0123456789"] });
    turn.textDelta("partial answer");
    const message = turn.fail("rate_limited", "429 for key sk-live-0123456789: slow down", { retryAfterMs: 2000 });
    expect(message).toMatchObject({ stopReason: "error", errorKind: "rate_limited", retryAfterMs: 2000 });
    expect(message.errorMessage).toBe("429 for key [redacted]: slow down");
    expect(assistantText(message)).toBe("partial answer");
    expect(terminal(events)).toHaveLength(1);
    expect(events.at(-1)!.type).toBe("error");
  });

  it("abort ends aborted with errorKind aborted", () => {
    const { turn, events } = setup();
    turn.textDelta("so far");
    const message = turn.abort();
    expect(message).toMatchObject({ stopReason: "aborted", errorKind: "aborted" });
    expect(events.at(-1)).toEqual({ type: "error", message });
  });

  it("cutShort keeps what arrived: partialFinalized stop, kind, open tool call truncated", () => {
    const { turn, events } = setup();
    turn.textDelta("The answer is");
    turn.toolCallStart("c1", "run");
    turn.toolCallDelta('{"cmd": "ls');
    const message = turn.cutShort("timeout");
    expect(message).toMatchObject({ stopReason: "stop", partialFinalized: true, errorKind: "timeout" });
    expect(message.content[1]).toMatchObject({ argumentsError: "truncated", rawArguments: '{"cmd": "ls' });
    expect(events.at(-1)).toEqual({ type: "done", message });
    expect(terminalCodeOf(message)).toBe("stream_cut");
  });

  it("cutShort with no answer received is an error of that kind, not an empty success", () => {
    expect(setup().turn.cutShort()).toMatchObject({ stopReason: "error", errorKind: "network" });
    expect(setup().turn.cutShort("timeout")).toMatchObject({ stopReason: "error", errorKind: "timeout" });
    const { turn } = setup();
    turn.thinkingDelta("I was about to say");
    const message = turn.cutShort("timeout", "stalled");
    expect(message).toMatchObject({
      stopReason: "error",
      errorKind: "timeout",
      errorMessage: "stalled",
      content: [{ type: "thinking", thinking: "I was about to say" }],
    });
    expect(message.partialFinalized).toBeUndefined();
  });

  it("after an ender every call is ignored and no second terminal event is pushed", () => {
    const { turn, events } = setup();
    turn.textDelta("done");
    const message = turn.finish("stop");
    expect(turn.isEnded).toBe(true);
    expect(turn.textDelta("more")).toBe("ended");
    expect(turn.toolCallStart("x", "y")).toBe("ended");
    expect(turn.fail("network", "late")).toBe(message);
    expect(turn.abort()).toBe(message);
    expect(turn.finish("length")).toBe(message);
    expect(message).toMatchObject({ stopReason: "stop", content: [{ type: "text", text: "done" }] });
    expect(terminal(events)).toHaveLength(1);
  });
});

describe("TurnBuilder degenerate cut", () => {
  it("cuts a looping text stream, keeps the prefix, ends error/degenerate_repetition and says cut", () => {
    const { turn, events } = setup();
    expect(turn.textDelta("Let me check. ")).toBe("ok");
    let result = "ok";
    let fed = 0;
    while (result === "ok" && fed < 10_000) {
      result = turn.textDelta("I will open the settings file again. ");
      fed++;
    }
    expect(result).toBe("cut");
    expect(turn.isEnded).toBe(true);
    expect(turn.isCut).toBe(true);
    const message = turn.message;
    expect(message).toMatchObject({ stopReason: "error", errorKind: "degenerate_repetition" });
    expect(isDegenerateCutMessage(message)).toBe(true);
    expect(assistantText(message)).toBe("Let me check. I will open the settings file again.");
    // The streamed deltas ran past the kept prefix; text_end carries the kept text.
    expect(events.find((e) => e.type === "text_end")).toMatchObject({ text: assistantText(message) });
    expect(terminal(events)).toEqual([{ type: "error", message }]);
    expect(turn.textDelta("more")).toBe("ended");
  });

  it("a loop in a text block after a tool call trims that block only", () => {
    const { turn } = setup();
    turn.textDelta("First I list the files.");
    turn.toolCallStart("c1", "ls");
    turn.toolCallDelta("{}");
    let result = turn.textDelta("Now: ");
    for (let i = 0; i < 1000 && result === "ok"; i++) result = turn.textDelta("checking the output again. ");
    expect(result).toBe("cut");
    const [first, call, last] = turn.message.content;
    expect(first).toEqual({ type: "text", text: "First I list the files." });
    expect(call).toEqual({ type: "toolCall", id: "c1", name: "ls", arguments: {} });
    // The prefix plus the first copy, or at most the second (the recurrence rule keeps up to it).
    expect(last).toMatchObject({
      type: "text",
      text: expect.stringMatching(/^Now: checking the output again\.( checking the output again\.)?$/),
    });
  });

  it("guards thinking too", () => {
    const { turn } = setup();
    let result = "ok";
    for (let i = 0; i < 1000 && result === "ok"; i++)
      result = turn.thinkingDelta("Wait, let me reconsider the approach. ");
    expect(result).toBe("cut");
    expect(turn.message.errorKind).toBe("degenerate_repetition");
  });

  it("guard: false never cuts", () => {
    const { turn } = setup({ guard: false });
    for (let i = 0; i < 500; i++) expect(turn.textDelta("again and again ")).toBe("ok");
    expect(turn.finish("stop").stopReason).toBe("stop");
  });
});

describe("TurnBuilder usage", () => {
  it("an ender still pushes its terminal event when the context cannot be estimated", async () => {
    const broken = { messages: [{ role: "user" }] } as unknown as Context;
    const { turn, events, stream } = setup({ context: broken });
    const message = turn.fail("bad_request", "broken context");
    expect(terminal(events)).toEqual([{ type: "error", message }]);
    expect(await stream.result()).toBe(message);
    expect(message.usage.input).toBe(0);
  });

  it("prices provider counts with the model's cost", () => {
    const { turn } = setup();
    turn.textDelta("hi");
    turn.usage({ input: 1000, cacheRead: 200 });
    turn.usage({ output: 50, reasoning: 10 });
    const { usage } = turn.finish("stop");
    expect(usage).toEqual({
      input: 1000,
      output: 50,
      cacheRead: 200,
      cacheWrite: 0,
      totalTokens: 1250,
      reasoning: 10,
      cost: { input: 2000, output: 400, cacheRead: 100, cacheWrite: 0, total: 2500 },
    });
  });

  it("estimates at chars/4 when the provider gave nothing, and says so", () => {
    const { turn } = setup({
      context: { systemPrompt: "x".repeat(40), messages: [{ role: "user", content: "y".repeat(60) }] },
    });
    turn.textDelta("z".repeat(10));
    turn.toolCallStart("c", "t");
    turn.toolCallDelta('{"a":1}');
    const { usage } = turn.finish("toolUse");
    expect(usage).toMatchObject({ input: 25, output: Math.ceil((10 + 1 + 7) / 4), estimated: true });
    expect(usage.cost.total).toBe(25 * 2 + usage.output * 8);
  });

  it("fills a missing output count by estimate when the stream was cut before the provider's final usage", () => {
    const { turn } = setup();
    turn.usage({ input: 300 });
    turn.textDelta("abcdefgh");
    const { usage } = turn.cutShort("network");
    expect(usage).toMatchObject({ input: 300, output: 2, estimated: true });
  });
});
