import { EventStream, defineModel, type BrainEvent, customApi } from "@x/llm-types";
import { describe, expect, it } from "vitest";
import { isPartialToolCallCut } from "@x/terminal-cause";
import { TurnBuilder } from "./turn-builder";

const model = defineModel({
  id: "test-model",
  api: customApi("test-api"),
  provider: "test",
  baseUrl: "http://127.0.0.1:1",
  contextWindow: 100_000,
  maxTokens: 1000,
});

/** A builder over a real EventStream, plus the events it pushed so far. */
function setup() {
  const stream = new EventStream();
  const events: BrainEvent[] = [];
  const turn = new TurnBuilder({ model, stream: { push: (e) => (events.push(e), stream.push(e)) } });
  return { turn, events };
}

describe("TurnBuilder explicit block boundaries (closeBlock)", () => {
  it("two thinking blocks in a row stay two blocks, each with its own signature", () => {
    const { turn, events } = setup();
    turn.thinkingDelta("First I plan.");
    turn.thinkingSignature("sig-1");
    turn.closeBlock();
    turn.thinkingDelta("Then I check.");
    turn.thinkingSignature("sig-2");
    turn.closeBlock();
    const message = turn.finish("stop");
    expect(message.content).toEqual([
      { type: "thinking", thinking: "First I plan.", signature: "sig-1" },
      { type: "thinking", thinking: "Then I check.", signature: "sig-2" },
    ]);
    expect(events.filter((e) => e.type === "thinking_start").map((e) => "contentIndex" in e && e.contentIndex)).toEqual(
      [0, 1],
    );
    expect(events.filter((e) => e.type === "thinking_end")).toHaveLength(2);
  });

  it("two text blocks in a row stay two blocks", () => {
    const { turn } = setup();
    turn.textDelta("one");
    turn.closeBlock();
    turn.textDelta("two");
    expect(turn.finish("stop").content).toEqual([
      { type: "text", text: "one" },
      { type: "text", text: "two" },
    ]);
  });

  it("without a boundary, deltas of one kind still merge into the open block", () => {
    const { turn } = setup();
    turn.textDelta("one ");
    turn.textDelta("two");
    expect(turn.finish("stop").content).toEqual([{ type: "text", text: "one two" }]);
  });

  it("a closed tool call keeps its parsed arguments when the stream is cut short afterwards", () => {
    const { turn } = setup();
    turn.toolCallStart("c1", "write");
    turn.toolCallDelta('{"path": "/a"}');
    turn.closeBlock();
    const message = turn.cutShort("network");
    expect(message).toMatchObject({ stopReason: "stop", partialFinalized: true, errorKind: "network" });
    expect(message.content).toEqual([{ type: "toolCall", id: "c1", name: "write", arguments: { path: "/a" } }]);
    expect(isPartialToolCallCut(message)).toBe(false);
  });

  it("a tool call whose JSON does not parse stays open at closeBlock: the ending says truncated or malformed", () => {
    const atCap = setup().turn;
    atCap.toolCallStart("c1", "write");
    atCap.toolCallDelta('{"path": "/a", "te');
    atCap.closeBlock();
    expect(atCap.finish("length").content[0]).toMatchObject({
      arguments: {},
      rawArguments: '{"path": "/a", "te',
      argumentsError: "truncated",
    });
    const broken = setup().turn;
    broken.toolCallStart("c1", "write");
    broken.toolCallDelta("{oops}");
    broken.closeBlock();
    expect(broken.finish("toolUse").content[0]).toMatchObject({
      arguments: {},
      rawArguments: "{oops}",
      argumentsError: "malformed_json",
    });
    const followed = setup().turn;
    followed.toolCallStart("c1", "write");
    followed.toolCallDelta("{oops}");
    followed.closeBlock();
    followed.textDelta("and more");
    expect(followed.finish("length").content[0]).toMatchObject({ argumentsError: "malformed_json" });
  });

  it("a cut stream settles an open tool call by its bytes alone: closed or not, the same call comes out", () => {
    const closed = setup().turn;
    closed.toolCallStart("c1", "write");
    closed.toolCallDelta('{"path": "/a"}');
    closed.closeBlock();
    const open = setup().turn;
    open.toolCallStart("c1", "write");
    open.toolCallDelta('{"path": "/a"}');
    // Anthropic closes the block with content_block_stop, Chat Completions never does: same bytes, same turn.
    expect(open.cutShort("network").content).toEqual(closed.cutShort("network").content);
    const half = setup().turn;
    half.toolCallStart("c1", "write");
    half.toolCallDelta('{"path": "/a", "te');
    expect(half.cutShort("network").content[0]).toMatchObject({
      argumentsError: "truncated",
      rawArguments: '{"path": "/a", "te',
    });
    const unstarted = setup().turn;
    unstarted.toolCallStart("c1", "write");
    expect(unstarted.cutShort("network").content[0]).toMatchObject({ argumentsError: "truncated", rawArguments: "" });
  });

  it("is a no-op with nothing open, and says ended after an ender", () => {
    const { turn, events } = setup();
    expect(turn.closeBlock()).toBe("ok");
    turn.textDelta("x");
    turn.finish("stop");
    expect(turn.closeBlock()).toBe("ended");
    expect(events.filter((e) => e.type === "text_end")).toHaveLength(1);
  });

  it("a late signature with no thinking block open goes to the last signable thinking block, not redacted", () => {
    const { turn } = setup();
    turn.thinkingDelta("plan");
    turn.closeBlock();
    turn.redactedThinking("OPAQUE");
    turn.thinkingSignature("sig-late");
    expect(turn.finish("stop").content).toEqual([
      { type: "thinking", thinking: "plan", signature: "sig-late" },
      { type: "thinking", thinking: "OPAQUE", redacted: true },
    ]);
  });
});
