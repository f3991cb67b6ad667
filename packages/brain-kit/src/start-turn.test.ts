import { defineModel, type BrainEvent, type BrainStream, type Context, type Model, customApi } from "@x/llm-types";
import { describe, expect, it } from "vitest";
import { startTurn } from "./start-turn";

const model = defineModel({
  id: "m-1",
  api: customApi("test-api"),
  provider: "test",
  baseUrl: "http://127.0.0.1:1",
  contextWindow: 1000,
  maxTokens: 100,
});
const context: Context = { messages: [{ role: "user", content: "hi" }] };
const KEY = "sk-test-SECRET-123456";

async function events(stream: BrainStream): Promise<BrainEvent[]> {
  const out: BrainEvent[] = [];
  for await (const event of stream) out.push(event);
  return out;
}

describe("startTurn", () => {
  it("hands run a builder for the call and the request, and returns the stream it ends", async () => {
    const stream = startTurn(model, context, { maxTokens: 7 }, { api: "test-api" }, async (turn, request) => {
      turn.textDelta(`cap ${request.maxTokens}`);
      turn.finish("stop");
    });
    expect((await events(stream)).map((e) => e.type)).toEqual([
      "start",
      "text_start",
      "text_delta",
      "text_end",
      "done",
    ]);
    expect(await stream.result()).toMatchObject({
      stopReason: "stop",
      content: [{ type: "text", text: "cap 7" }],
      model: "m-1",
      api: customApi("test-api"),
    });
  });

  it.each<[string, unknown, unknown, unknown]>([
    ["no model", undefined, context, {}],
    ["a model without a baseUrl", { ...model, baseUrl: 3 }, context, {}],
    ["no context", model, undefined, {}],
    ["messages that are not an array", model, { messages: "hi" }, {}],
    ["a message with no role", model, { messages: [{ content: "hi" }] }, {}],
    ["a request that is not an object", model, context, "fast"],
    ["request headers that are not an object", model, context, { headers: ["x"] }],
  ])("%s ⇒ bad_request at once, no throw, run never called", async (_name, badModel, badContext, badRequest) => {
    let ran = false;
    const stream = startTurn(
      badModel as Model,
      badContext as Context,
      badRequest as object,
      { api: "test-api" },
      () => {
        ran = true;
        return Promise.resolve();
      },
    );
    expect((await events(stream)).map((e) => e.type)).toEqual(["start", "error"]);
    expect(await stream.result()).toMatchObject({
      stopReason: "error",
      errorKind: "bad_request",
      api: customApi("test-api"),
      errorMessage: expect.stringMatching(/^invalid call: /),
    });
    expect(ran).toBe(false);
  });

  it("a builder that cannot be made (guard options that throw when read) ends as bad_request, no throw", async () => {
    const guard = Object.defineProperty({}, "minPeriod", {
      enumerable: true,
      get: () => {
        throw new Error("bad option");
      },
    });
    const stream = startTurn(model, context, {}, { api: "a", guard }, () => Promise.resolve());
    expect(await stream.result()).toMatchObject({
      stopReason: "error",
      errorKind: "bad_request",
      errorMessage: "invalid call: the turn could not start: bad option",
    });
  });

  it("a run that throws or rejects ends the turn as a provider failure, keeps what arrived, key scrubbed", async () => {
    const sync = startTurn(model, context, undefined, { api: "a", apiKey: KEY }, () => {
      throw new Error(`bug with ${KEY}`);
    });
    expect(await sync.result()).toMatchObject({
      stopReason: "error",
      errorKind: "provider",
      errorMessage: "internal error: bug with [redacted]",
    });
    const late = startTurn(model, context, undefined, { api: "a" }, async (turn) => {
      turn.textDelta("so far");
      await Promise.resolve();
      throw new TypeError("late bug");
    });
    const message = await late.result();
    expect(message).toMatchObject({
      stopReason: "error",
      errorKind: "provider",
      content: [{ type: "text", text: "so far" }],
    });
  });

  it("a run that returns without ending the turn does not leave the caller waiting", async () => {
    const stream = startTurn(model, context, {}, { api: "a" }, async (turn) => void turn.textDelta("forgot to finish"));
    expect(await stream.result()).toMatchObject({
      stopReason: "error",
      errorKind: "provider",
      errorMessage: expect.stringContaining("without ending"),
    });
  });

  it("scrubs the key and credential headers of brain, model and request from every message", async () => {
    const stream = startTurn(
      { ...model, headers: { "x-goog-api-key": "model-key-777777" } },
      context,
      { headers: { authorization: "Bearer request-token-888888" } },
      { api: "a", apiKey: KEY, headers: { "api-key": "brain-key-999999" } },
      async (turn) => void turn.fail("auth", `echo ${KEY} model-key-777777 request-token-888888 brain-key-999999`),
    );
    const all = JSON.stringify(await events(stream));
    for (const secret of [KEY, "model-key-777777", "request-token-888888", "brain-key-999999"])
      expect(all).not.toContain(secret);
    expect((await stream.result()).errorMessage).toBe("echo [redacted] [redacted] [redacted] [redacted]");
  });
});
