import { EventStream, defineModel, customApi } from "@x/llm-types";
import { describe, expect, it } from "vitest";
import { runStreamedCall, type StreamedCall } from "./streamed-call";
import { TurnBuilder } from "./turn-builder";

const model = defineModel({
  id: "m",
  api: customApi("test"),
  provider: "test",
  baseUrl: "http://127.0.0.1:1",
  contextWindow: 1000,
  maxTokens: 100,
});

/** A call over `texts` that says it finished when it saw "<stop>". */
function textCall(turn: TurnBuilder, texts: string[], opened: string[] = []): StreamedCall<string, string> {
  let stopped = false;
  return {
    build: () => "body",
    open: (body, _signal, sink) => {
      opened.push(body);
      for (const text of texts) if (!sink(text)) break;
      return Promise.resolve();
    },
    read: (item) => {
      if (item === "<stop>") {
        stopped = true;
        return "ok";
      }
      return turn.textDelta(item);
    },
    finish: () => (stopped ? () => turn.finish("stop") : undefined),
    classify: () => undefined,
  };
}

const newTurn = () => new TurnBuilder({ model, stream: new EventStream() });

describe("runStreamedCall", () => {
  it("a request that cannot be built ends bad_request and opens nothing", async () => {
    const turn = newTurn();
    const opened: string[] = [];
    const call = textCall(turn, ["hi"], opened);
    await runStreamedCall(turn, {}, undefined, {
      ...call,
      build: () => {
        throw new Error("no such tool schema");
      },
    });
    expect(opened).toEqual([]);
    expect(turn.message).toMatchObject({
      stopReason: "error",
      errorKind: "bad_request",
      errorMessage: "could not build the request: no such tool schema",
    });
  });

  it("reads the finish after the stream: a provider that said stop ends the turn stop", async () => {
    const turn = newTurn();
    const opened: string[] = [];
    await runStreamedCall(turn, {}, undefined, textCall(turn, ["Hello", " world", "<stop>"], opened));
    expect(opened).toEqual(["body"]);
    expect(turn.message.stopReason).toBe("stop");
    expect(turn.message.content).toEqual([{ type: "text", text: "Hello world" }]);
  });

  it("a stream that ends without the provider's finish keeps what arrived and is cut, not an answer", async () => {
    const turn = newTurn();
    await runStreamedCall(turn, {}, undefined, textCall(turn, ["Hello"]));
    expect(turn.message).toMatchObject({ errorKind: "network", partialFinalized: true });
  });

  it("the request's stall timeout wins over the brain's: a silent provider is cut at it", async () => {
    const turn = newTurn();
    const silent: StreamedCall<string, string> = {
      ...textCall(turn, []),
      open: (_body, signal) =>
        new Promise((_resolve, reject) => signal.addEventListener("abort", () => reject(new Error("aborted")))),
    };
    await runStreamedCall(turn, { stallTimeoutMs: 20 }, 60_000, silent);
    expect(turn.message).toMatchObject({ stopReason: "error", errorKind: "timeout" });
    expect(turn.message.errorMessage).toContain("no bytes for 20 ms");
  });
});
