import { EventStream, defineModel, type AssistantMessage, type BrainEvent, customApi } from "@x/llm-types";
import { describe, expect, it } from "vitest";
import { TurnBuilder } from "./turn-builder";

const model = defineModel({
  id: "test-model",
  api: customApi("test-api"),
  provider: "test",
  baseUrl: "http://127.0.0.1:1",
  cost: { input: 2, output: 8, cacheRead: 0.5, cacheWrite: 2.5 },
  contextWindow: 100_000,
  maxTokens: 1000,
});

/** A builder whose sink hands each event to `consume` as it is pushed, like a live consumer. */
function setup(consume: (event: BrainEvent) => void) {
  const stream = new EventStream();
  const turn = new TurnBuilder({ model, now: () => 1234, stream: { push: (e) => (consume(e), stream.push(e)) } });
  return turn;
}

describe("TurnBuilder event isolation", () => {
  it("a consumer editing the start event's partial does not reach the message being built", () => {
    let partial: AssistantMessage | undefined;
    const turn = setup((event) => {
      if (event.type !== "start") return;
      partial = event.partial;
      event.partial.content.push({ type: "text", text: "injected" });
      event.partial.usage.input = 999;
      event.partial.usage.cost.total = 999;
      event.partial.stopReason = "error";
      event.partial.model = "other";
    });
    turn.responseId("resp_1");
    turn.textDelta("Hello");
    expect(partial).toBeDefined();
    expect(turn.message).toMatchObject({
      content: [{ type: "text", text: "Hello" }],
      stopReason: "stop",
      model: "test-model",
      responseId: "resp_1",
    });
    expect(turn.message.usage).toMatchObject({ input: 0, cost: { total: 0 } });
    const message = turn.finish("stop");
    expect(message.content).toEqual([{ type: "text", text: "Hello" }]);
    expect(message.usage.cost.total).not.toBe(999);
  });

  it("the start partial carries the message's fields so far, with empty content", () => {
    const starts: BrainEvent[] = [];
    const turn = setup((event) => event.type === "start" && starts.push(event));
    turn.responseId("resp_1");
    turn.toolCallStart("c1", "read");
    expect(starts).toEqual([
      {
        type: "start",
        partial: {
          role: "assistant",
          content: [],
          api: customApi("test-api"),
          provider: "test",
          model: "test-model",
          usage: turn.message.usage,
          stopReason: "stop",
          timestamp: 1234,
          responseId: "resp_1",
        },
      },
    ]);
  });

  it("a consumer editing a toolcall_end event's call (arguments included) does not reach the message", () => {
    const ended: BrainEvent[] = [];
    const turn = setup((event) => {
      if (event.type !== "toolcall_end") return;
      ended.push(event);
      const call = event.toolCall;
      if (call.id !== "c1") return;
      call.name = "rm";
      call.id = "other";
      call.arguments.path = "/etc";
      (call.arguments.opts as { deep: boolean }).deep = false;
      (call.arguments.list as number[]).push(4);
      call.arguments.added = true;
    });
    turn.toolCallStart("c1", "read");
    turn.toolCallDelta('{"path":"/a","opts":{"deep":true},"list":[1,2,3]}');
    turn.toolCallStart("c2", "write");
    turn.toolCallDelta('{"path":');
    const message = turn.finish("length");
    expect(ended).toHaveLength(2);
    expect(message.content).toEqual([
      { type: "toolCall", id: "c1", name: "read", arguments: { path: "/a", opts: { deep: true }, list: [1, 2, 3] } },
      {
        type: "toolCall",
        id: "c2",
        name: "write",
        arguments: {},
        rawArguments: '{"path":',
        argumentsError: "truncated",
      },
    ]);
  });

  it("the toolcall_end event carries the settled call, equal to the message's block", () => {
    const ended: BrainEvent[] = [];
    const turn = setup((event) => event.type === "toolcall_end" && ended.push(event));
    turn.toolCallStart("c1", "read");
    turn.toolCallDelta('{"path":"/a"}');
    turn.toolCallStart("c2", "write");
    turn.toolCallDelta("{not json");
    turn.toolCallStart("c3", "ls");
    const message = turn.finish("toolUse");
    expect(ended.map((e) => e.type === "toolcall_end" && e.toolCall)).toEqual(message.content);
    expect(ended.map((e) => e.type === "toolcall_end" && e.toolCall)).toEqual([
      { type: "toolCall", id: "c1", name: "read", arguments: { path: "/a" } },
      {
        type: "toolCall",
        id: "c2",
        name: "write",
        arguments: {},
        rawArguments: "{not json",
        argumentsError: "malformed_json",
      },
      { type: "toolCall", id: "c3", name: "ls", arguments: {} },
    ]);
    for (const [i, event] of ended.entries()) {
      const call = event.type === "toolcall_end" ? event.toolCall : undefined;
      expect(call).not.toBe(message.content[i]);
      expect(call?.arguments).not.toBe((message.content[i] as { arguments: object }).arguments);
    }
  });
});
