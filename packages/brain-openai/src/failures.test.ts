import {
  assistantText,
  assistantToolCalls,
  defineModel,
  type BrainEvent,
  type BrainRequest,
  type Context,
  type Model,
} from "@x/llm-types";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createOpenAIBrain } from "./openai-brain";
import { sseFrame, startOpenAIMockServer, type OpenAIMockScript, type OpenAIMockServer } from "./testing";

const KEY = "sk-live-SECRET-0123456789abcdef";
let server: OpenAIMockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function modelAt(baseUrl: string, extra: Partial<Model> = {}): Model {
  return defineModel({
    id: "gpt-4.1-mini",
    api: "openai-completions",
    provider: "openai",
    baseUrl,
    contextWindow: 128_000,
    maxTokens: 4096,
    ...extra,
  });
}
const ask: Context = { messages: [{ role: "user", content: "hello" }] };

async function turn(script: OpenAIMockScript, request: BrainRequest = {}, context: Context = ask) {
  server = await startOpenAIMockServer(script);
  const stream = createOpenAIBrain({ apiKey: KEY }).stream(modelAt(server.baseUrl), context, request);
  const events: BrainEvent[] = [];
  for await (const event of stream) events.push(event);
  return { message: await stream.result(), events };
}

describe("HTTP failures become typed turns", () => {
  it("429 ⇒ rate_limited with retry-after (seconds) passed on and the provider's text kept", async () => {
    const { message, events } = await turn([
      {
        kind: "error",
        error: {
          status: 429,
          message: "Rate limit reached for requests",
          type: "requests",
          code: "rate_limit_exceeded",
          headers: { "retry-after": "7" },
        },
      },
    ]);
    expect(message).toMatchObject({ stopReason: "error", errorKind: "rate_limited", retryAfterMs: 7000 });
    expect(message.errorMessage).toContain("Rate limit reached for requests");
    expect(events.map((e) => e.type)).toEqual(["start", "error"]);
  });

  it("429 ⇒ rate_limited reads retry-after-ms first", async () => {
    const { message } = await turn([
      {
        kind: "error",
        error: { status: 429, message: "slow down", headers: { "retry-after-ms": "1500", "retry-after": "2" } },
      },
    ]);
    expect(message).toMatchObject({ errorKind: "rate_limited", retryAfterMs: 1500 });
  });

  it.each([503, 529])("%i ⇒ overloaded", async (status) => {
    const { message } = await turn([
      { kind: "error", error: { status, message: "The engine is currently overloaded", type: "server_error" } },
    ]);
    expect(message).toMatchObject({ stopReason: "error", errorKind: "overloaded" });
  });

  it.each([401, 403])("%i ⇒ auth", async (status) => {
    const { message } = await turn([
      {
        kind: "error",
        error: {
          status,
          message: "Incorrect API key provided",
          type: "invalid_request_error",
          code: "invalid_api_key",
        },
      },
    ]);
    expect(message).toMatchObject({ stopReason: "error", errorKind: "auth" });
  });

  it("a context-length 400 ⇒ context_overflow", async () => {
    const { message } = await turn([
      {
        kind: "error",
        error: {
          status: 400,
          message:
            "This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens.",
          code: "context_length_exceeded",
        },
      },
    ]);
    expect(message).toMatchObject({ stopReason: "error", errorKind: "context_overflow" });
    expect(message.errorMessage).toContain("maximum context length is 128000 tokens");
  });

  it("another 400 ⇒ bad_request", async () => {
    const { message } = await turn([
      { kind: "error", error: { status: 400, message: "Invalid value for 'tool_choice'", code: "invalid_value" } },
    ]);
    expect(message).toMatchObject({ stopReason: "error", errorKind: "bad_request" });
  });

  it("500 ⇒ provider", async () => {
    const { message } = await turn([
      { kind: "error", error: { status: 500, message: "The server had an error", type: "server_error" } },
    ]);
    expect(message).toMatchObject({ stopReason: "error", errorKind: "provider" });
  });

  it("an error event inside the stream is classified from its text", async () => {
    const { message } = await turn([
      {
        text: "Hel",
        finishReason: null,
        cutAfter: 2,
        streamError: { message: "Model is overloaded, try again", type: "server_error" },
        ending: "end",
      },
    ]);
    expect(message).toMatchObject({ stopReason: "error", errorKind: "overloaded" });
    expect(assistantText(message)).toBe("Hel");
  });

  it("API keys never appear in any message or event, even when the provider echoes them", async () => {
    const { message, events } = await turn((request) => ({
      kind: "error",
      error: { status: 401, message: `Invalid key. You sent: ${request.headers.authorization} (key ${KEY})` },
    }));
    expect(message.errorKind).toBe("auth");
    expect(message.errorMessage).toContain("[redacted]");
    expect(JSON.stringify(message)).not.toContain(KEY);
    expect(JSON.stringify(events)).not.toContain(KEY);
    expect(JSON.stringify(events)).not.toContain("SECRET");
  });
});

describe("credentials the SDK adds on its own", () => {
  it("a credential header from OPENAI_CUSTOM_HEADERS is sent (by the SDK) but never appears in a message", async () => {
    const saved = process.env.OPENAI_CUSTOM_HEADERS;
    process.env.OPENAI_CUSTOM_HEADERS = "X-Proxy-Token: proxy-SECRET-7777777";
    try {
      server = await startOpenAIMockServer((request) => ({
        kind: "error",
        error: { status: 401, message: `echo ${JSON.stringify(request.headers)}` },
      }));
      const stream = createOpenAIBrain({ apiKey: KEY }).stream(modelAt(server.baseUrl), ask);
      const events: BrainEvent[] = [];
      for await (const event of stream) events.push(event);
      expect(server.requests[0]!.headers["x-proxy-token"]).toBe("proxy-SECRET-7777777");
      expect(JSON.stringify(events)).not.toContain("SECRET");
      expect((await stream.result()).errorMessage).toContain("[redacted]");
    } finally {
      if (saved === undefined) delete process.env.OPENAI_CUSTOM_HEADERS;
      else process.env.OPENAI_CUSTOM_HEADERS = saved;
    }
  });
});

describe("transport failures", () => {
  it("timeout ⇒ timeout when the whole-call deadline passes before any answer", async () => {
    const { message } = await turn([{ kind: "hang" }], { timeoutMs: 300 });
    expect(message).toMatchObject({ stopReason: "error", errorKind: "timeout" });
  });

  it("a server that never answers is cut by the stall timer when there is no deadline ⇒ timeout", async () => {
    const { message } = await turn([{ kind: "hang" }], { stallTimeoutMs: 300 });
    expect(message).toMatchObject({
      stopReason: "error",
      errorKind: "timeout",
      errorMessage: expect.stringContaining("stall"),
    });
  });

  it("a deadline passing mid-stream keeps what arrived, stamped timeout", async () => {
    // The role chunk and two text chunks, then silence; the deadline comes long before the stall timer.
    const { message } = await turn([{ text: ["part0 ", "part1 ", "part2 "], cutAfter: 3, ending: "hang" }], {
      timeoutMs: 500,
      stallTimeoutMs: 60_000,
    });
    expect(message).toMatchObject({ stopReason: "stop", partialFinalized: true, errorKind: "timeout" });
    expect(message.errorMessage).toContain("500 ms");
    expect(assistantText(message)).toBe("part0 part1 ");
  });

  it("a malformed context ends as bad_request instead of hanging or throwing", async () => {
    server = await startOpenAIMockServer([{ text: "never" }]);
    const broken = { messages: [{ role: "assistant" }] } as unknown as Context;
    const message = await createOpenAIBrain({ apiKey: KEY }).stream(modelAt(server.baseUrl), broken).result();
    expect(message).toMatchObject({
      stopReason: "error",
      errorKind: "bad_request",
      errorMessage: expect.stringContaining("could not build the request"),
    });
    expect(server.requests).toHaveLength(0);
  });

  it("a malformed model ends as bad_request instead of throwing", async () => {
    const stream = createOpenAIBrain({ apiKey: KEY }).stream(undefined as unknown as Model, ask);
    expect(await stream.result()).toMatchObject({ stopReason: "error", errorKind: "bad_request", model: "unknown" });
  });

  it("connection reset before any response ⇒ network", async () => {
    const { message } = await turn([{ kind: "drop" }]);
    expect(message).toMatchObject({ stopReason: "error", errorKind: "network" });
    expect(message.partialFinalized).toBeUndefined();
  });

  it("connection refused ⇒ network", async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const message = await createOpenAIBrain({ apiKey: KEY })
      .stream(modelAt(`http://127.0.0.1:${port}/v1`), ask)
      .result();
    expect(message).toMatchObject({ stopReason: "error", errorKind: "network" });
  });

  it("a stream that ends early keeps what arrived: partialFinalized, stop synthesised", async () => {
    const { message, events } = await turn([
      { text: ["The answer ", "is 4", "2 because"], cutAfter: 3, ending: "end" },
    ]);
    expect(message).toMatchObject({ stopReason: "stop", partialFinalized: true, errorKind: "network" });
    expect(assistantText(message)).toBe("The answer is 4");
    expect(events.at(-1)?.type).toBe("done");
  });

  it("a connection reset mid-stream keeps what arrived, partialFinalized", async () => {
    const { message } = await turn([{ text: ["one ", "two ", "three"], cutAfter: 3, ending: "destroy" }]);
    expect(message).toMatchObject({ stopReason: "stop", partialFinalized: true, errorKind: "network" });
    expect(assistantText(message)).toBe("one two ");
  });

  it("a stream that stalls is cut at the stall: what arrived kept, partialFinalized, timeout", async () => {
    const { message } = await turn([{ text: ["still ", "here ", "then silence"], cutAfter: 3, ending: "hang" }], {
      stallTimeoutMs: 400,
    });
    expect(message).toMatchObject({ stopReason: "stop", partialFinalized: true, errorKind: "timeout" });
    expect(assistantText(message)).toBe("still here ");
    expect(message.errorMessage).toContain("stall");
  });

  it("a stall after the finish chunk loses nothing", async () => {
    const { message } = await turn([{ text: "complete", cutAfter: 3, ending: "hang" }], { stallTimeoutMs: 400 });
    expect(message).toMatchObject({ stopReason: "stop" });
    expect(message.partialFinalized).toBeUndefined();
  });

  it("abort via signal ⇒ aborted, keeping what arrived", async () => {
    // The role chunk and the first text chunk, then silence: only the abort can end this call.
    server = await startOpenAIMockServer([{ text: ["first ", "second ", "third"], cutAfter: 2, ending: "hang" }]);
    const controller = new AbortController();
    const stream = createOpenAIBrain({ apiKey: KEY }).stream(modelAt(server.baseUrl), ask, {
      signal: controller.signal,
    });
    for await (const event of stream) if (event.type === "text_delta") controller.abort();
    const message = await stream.result();
    expect(message).toMatchObject({ stopReason: "aborted", errorKind: "aborted" });
    expect(assistantText(message)).toBe("first ");
  });

  it("a signal aborted before the call ⇒ aborted", async () => {
    const { message } = await turn([{ text: "never" }], { signal: AbortSignal.abort() });
    expect(message).toMatchObject({ stopReason: "aborted", errorKind: "aborted" });
  });
});

describe("content failures", () => {
  it("malformed JSON in tool-call arguments is kept raw and marked, never silently {}", async () => {
    const { message } = await turn([
      { toolCalls: [{ id: "call_1", name: "write", arguments: '{"path": "a.txt", "text": "unterminated}' }] },
    ]);
    expect(message.stopReason).toBe("toolUse");
    expect(assistantToolCalls(message)).toEqual([
      {
        type: "toolCall",
        id: "call_1",
        name: "write",
        arguments: {},
        rawArguments: '{"path": "a.txt", "text": "unterminated}',
        argumentsError: "malformed_json",
      },
    ]);
  });

  it("tool-call arguments cut by a dropped stream are kept raw and marked truncated", async () => {
    const { message } = await turn([
      {
        toolCalls: [{ id: "call_1", name: "write", arguments: { path: "a.txt", text: "a long body of text" } }],
        cutAfter: 4,
        ending: "destroy",
      },
    ]);
    const [call] = assistantToolCalls(message);
    expect(message.partialFinalized).toBe(true);
    expect(call).toMatchObject({ id: "call_1", arguments: {}, argumentsError: "truncated" });
    expect(call!.rawArguments!.length).toBeGreaterThan(0);
  });

  it("two tool calls: the first settles as the index changes; a drop in the second cuts only the second", async () => {
    const calls = [
      { id: "call_1", name: "read", arguments: { path: "a.txt" } },
      { id: "call_2", name: "write", arguments: { path: "b.txt", text: "a long body of text" } },
    ];
    // role chunk, call_1 start + 3 fragments, call_2 start + 1 fragment — then a reset.
    const { message } = await turn([{ toolCalls: calls, cutAfter: 7, ending: "destroy" }]);
    expect(message).toMatchObject({ stopReason: "stop", partialFinalized: true, errorKind: "network" });
    const [first, second] = assistantToolCalls(message);
    expect(first).toEqual({ type: "toolCall", id: "call_1", name: "read", arguments: { path: "a.txt" } });
    expect(second).toMatchObject({ id: "call_2", arguments: {}, argumentsError: "truncated" });
  });

  it("an empty reply at the static cap ⇒ length_empty", async () => {
    const { message } = await turn([{ finishReason: "length" }], { maxTokens: 64 });
    expect(message).toMatchObject({ stopReason: "error", errorKind: "length_empty" });
    expect(message.errorMessage).toContain("64");
  });

  it("a looping stream is cut by the repetition guard, keeping the prefix", async () => {
    const loop = Array.from({ length: 120 }, () => "I will check the file again. ");
    const { message } = await turn([{ text: ["Plan: read the config. ", ...loop] }]);
    expect(message).toMatchObject({ stopReason: "error", errorKind: "degenerate_repetition" });
    const text = assistantText(message);
    expect(text.startsWith("Plan: read the config.")).toBe(true);
    expect(text.length).toBeLessThan(loop.join("").length / 2);
  });

  it("finish_reason content_filter ⇒ content_filter", async () => {
    const { message } = await turn([{ text: "I can", finishReason: "content_filter" }]);
    expect(message).toMatchObject({ stopReason: "error", errorKind: "content_filter" });
  });

  it("a malformed event in the stream ⇒ provider, keeping what arrived", async () => {
    const { message } = await turn([
      {
        kind: "wire",
        reply: {
          kind: "sse",
          frames: [
            sseFrame({
              id: "x",
              object: "chat.completion.chunk",
              created: 0,
              model: "m",
              choices: [{ index: 0, delta: { content: "ok" }, finish_reason: null }],
            }),
            "data: {not json\n\n",
          ],
          ending: "end",
        },
      },
    ]);
    expect(message).toMatchObject({ stopReason: "error", errorKind: "provider" });
    expect(assistantText(message)).toBe("ok");
  });
});
