import { AssistantMessageSchema, EventStream, defineModel, type AssistantMessage, customApi } from "@x/llm-types";
import { describe, expect, it } from "vitest";
import { isBuiltTurn } from "./built-turn";
import { TurnBuilder } from "./turn-builder";

const model = defineModel({
  id: "test-model",
  api: customApi("test-api"),
  provider: "test",
  baseUrl: "http://127.0.0.1:1",
  contextWindow: 100_000,
  maxTokens: 1000,
});

function builder(secrets?: string[]) {
  return new TurnBuilder({ model, stream: new EventStream(), ...(secrets ? { secrets } : {}) });
}

/** Feeds every kind of block, leaving a tool call open with malformed JSON. */
function fed(turn: TurnBuilder): TurnBuilder {
  turn.responseId("resp_1");
  turn.thinkingDelta("Plan.", "sig");
  turn.redactedThinking("opaque");
  turn.textDelta("Answer");
  turn.toolCallStart("c1", "read");
  turn.toolCallDelta('{"path":"/a"}');
  turn.toolCallStart("c2", "write");
  turn.toolCallDelta('{"path":');
  turn.usage({ input: 10, output: 5, cacheRead: 1, reasoning: 2 });
  return turn;
}

/** Every ender, on an empty turn and on a fed one. */
const enders: Array<[string, (turn: TurnBuilder) => AssistantMessage]> = [
  ["finish stop", (t) => t.finish("stop")],
  ["finish length", (t) => t.finish("length")],
  ["finish toolUse", (t) => t.finish("toolUse")],
  ["fail", (t) => t.fail("rate_limited", "slow down sk-secret", { retryAfterMs: 1500 })],
  ["fail with a bad retry hint", (t) => t.fail("overloaded", "busy", { retryAfterMs: -1 })],
  ["abort", (t) => t.abort()],
  ["cutShort", (t) => t.cutShort("timeout", "stalled")],
  ["cutShort without a kind", (t) => t.cutShort()],
];

describe("isBuiltTurn", () => {
  for (const [name, end] of enders) {
    for (const [state, make] of [
      ["empty", () => builder(["sk-secret"])],
      ["fed", () => fed(builder(["sk-secret"]))],
    ] as const) {
      it(`${name} (${state}): the final message is schema-valid by construction and branded`, () => {
        const turn = make();
        const message = end(turn);
        expect(AssistantMessageSchema.safeParse(message).error).toBeUndefined();
        expect(isBuiltTurn(message)).toBe(true);
      });
    }
  }

  it("a turn the repetition guard cut is schema-valid and branded", () => {
    const turn = builder();
    turn.toolCallStart("c1", "read");
    let result = turn.textDelta("Now: ");
    for (let i = 0; i < 1000 && result === "ok"; i++) result = turn.textDelta("checking the output again. ");
    expect(result).toBe("cut");
    expect(AssistantMessageSchema.safeParse(turn.message).error).toBeUndefined();
    expect(isBuiltTurn(turn.message)).toBe(true);
  });

  it("a turn still being built, a copy of a built one and non-objects are not branded", () => {
    const turn = builder();
    turn.textDelta("hi");
    expect(isBuiltTurn(turn.message)).toBe(false);
    const message = turn.finish("stop");
    expect(isBuiltTurn({ ...message })).toBe(false);
    expect(isBuiltTurn(structuredClone(message))).toBe(false);
    expect(isBuiltTurn(undefined)).toBe(false);
    expect(isBuiltTurn("message")).toBe(false);
  });
});
