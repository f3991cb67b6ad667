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
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterEach, describe, expect, it } from "vitest";
import { createAnthropicBrain } from "./anthropic-brain";
import { sseFrame, startAnthropicMockServer, type AnthropicMockScript, type AnthropicMockServer } from "./testing";

const KEY = "sk-ant-api03-SECRET-0123456789abcdef";
let server: AnthropicMockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function modelAt(baseUrl: string, extra: Partial<Model> = {}): Model {
  return defineModel({
    id: "claude-haiku-4-5",
    api: "anthropic-messages",
    provider: "anthropic",
    baseUrl,
    contextWindow: 200_000,
    maxTokens: 8192,
    ...extra,
  });
}
const ask: Context = { messages: [{ role: "user", content: "hello" }] };

async function turn(script: AnthropicMockScript, request: BrainRequest = {}) {
  server = await startAnthropicMockServer(script);
  const stream = createAnthropicBrain({ apiKey: KEY }).stream(modelAt(server.baseUrl), ask, request);
  const events: BrainEvent[] = [];
  for await (const event of stream) events.push(event);
  return { message: await stream.result(), events };
}

describe("HTTP failures become typed turns", () => {
  it("429 ⇒ rate_limited with retry-after passed on and the provider's text kept", async () => {
    const { message, events } = await turn([
      {
        kind: "error",
        error: {
          status: 429,
          type: "rate_limit_error",
          message: "Number of request tokens has exceeded your per-minute rate limit",
          headers: { "retry-after": "12" },
        },
      },
    ]);
    expect(message).toMatchObject({ stopReason: "error", errorKind: "rate_limited", retryAfterMs: 12_000 });
    expect(message.errorMessage).toContain("per-minute rate limit");
    expect(events.map((e) => e.type)).toEqual(["start", "error"]);
  });

  it("429 ⇒ rate_limited reads retry-after-ms first", async () => {
    const { message } = await turn([
      {
        kind: "error",
        error: {
          status: 429,
          type: "rate_limit_error",
          message: "slow down",
          headers: { "retry-after-ms": "250", "retry-after": "1" },
        },
      },
    ]);
    expect(message).toMatchObject({ errorKind: "rate_limited", retryAfterMs: 250 });
  });

  it("529 overloaded_error ⇒ overloaded", async () => {
    const { message } = await turn([
      { kind: "error", error: { status: 529, type: "overloaded_error", message: "Overloaded" } },
    ]);
    expect(message).toMatchObject({ stopReason: "error", errorKind: "overloaded" });
  });

  it("503 ⇒ overloaded", async () => {
    const { message } = await turn([
      { kind: "error", error: { status: 503, type: "api_error", message: "Service unavailable" } },
    ]);
    expect(message).toMatchObject({ stopReason: "error", errorKind: "overloaded" });
  });

  it.each([
    [401, "authentication_error"],
    [403, "permission_error"],
  ])("%i ⇒ auth", async (status, type) => {
    const { message } = await turn([{ kind: "error", error: { status, type, message: "invalid x-api-key" } }]);
    expect(message).toMatchObject({ stopReason: "error", errorKind: "auth" });
  });

  it("a context-length 400 ⇒ context_overflow", async () => {
    const { message } = await turn([
      {
        kind: "error",
        error: {
          status: 400,
          type: "invalid_request_error",
          message: "prompt is too long: 215000 tokens > 200000 maximum",
        },
      },
    ]);
    expect(message).toMatchObject({ stopReason: "error", errorKind: "context_overflow" });
    expect(message.errorMessage).toContain("prompt is too long");
  });

  it("another 400 ⇒ bad_request", async () => {
    const { message } = await turn([
      {
        kind: "error",
        error: { status: 400, type: "invalid_request_error", message: "messages.1.content.0: unexpected tool_use_id" },
      },
    ]);
    expect(message).toMatchObject({ stopReason: "error", errorKind: "bad_request" });
  });

  it("an overloaded_error event inside the stream ⇒ overloaded, keeping what arrived", async () => {
    const { message } = await turn([
      {
        blocks: [{ type: "text", text: ["Hel", "lo"] }],
        cutAfter: 4,
        streamError: { type: "overloaded_error", message: "Overloaded" },
        ending: "end",
      },
    ]);
    expect(message).toMatchObject({ stopReason: "error", errorKind: "overloaded" });
    expect(assistantText(message)).toBe("Hel");
  });

  it("API keys never appear in any message or event, even when the provider echoes them", async () => {
    const { message, events } = await turn((request) => ({
      kind: "error",
      error: {
        status: 401,
        type: "authentication_error",
        message: `bad credentials: ${request.headers.authorization}; x-api-key=${KEY}`,
      },
    }));
    expect(message.errorKind).toBe("auth");
    expect(message.errorMessage).toContain("[redacted]");
    expect(JSON.stringify(message)).not.toContain("SECRET");
    expect(JSON.stringify(events)).not.toContain("SECRET");
  });
});

describe("credentials the SDK adds on its own", () => {
  it(
    "a credential header from ANTHROPIC_CUSTOM_HEADERS is sent (the SDK's doing) " + "but never appears in any message",
    async () => {
      const saved = process.env.ANTHROPIC_CUSTOM_HEADERS;
      process.env.ANTHROPIC_CUSTOM_HEADERS = "X-Proxy-Token: proxy-SECRET-7777777";
      try {
        server = await startAnthropicMockServer((request) => ({
          kind: "error",
          error: { status: 401, type: "authentication_error", message: `echo ${JSON.stringify(request.headers)}` },
        }));
        const stream = createAnthropicBrain({ apiKey: KEY }).stream(modelAt(server.baseUrl), ask);
        const events: BrainEvent[] = [];
        for await (const event of stream) events.push(event);
        expect(server.requests[0]!.headers["x-proxy-token"]).toBe("proxy-SECRET-7777777");
        expect(JSON.stringify(events)).not.toContain("SECRET");
        expect((await stream.result()).errorMessage).toContain("[redacted]");
      } finally {
        if (saved === undefined) delete process.env.ANTHROPIC_CUSTOM_HEADERS;
        else process.env.ANTHROPIC_CUSTOM_HEADERS = saved;
      }
    },
  );
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
    // message_start, ping, block start, two deltas — then silence; the deadline comes long before the stall timer.
    const { message } = await turn(
      [{ blocks: [{ type: "text", text: ["part0 ", "part1 ", "part2 "] }], cutAfter: 5, ending: "hang" }],
      { timeoutMs: 500, stallTimeoutMs: 60_000 },
    );
    expect(message).toMatchObject({ stopReason: "stop", partialFinalized: true, errorKind: "timeout" });
    expect(message.errorMessage).toContain("500 ms");
    expect(assistantText(message)).toBe("part0 part1 ");
  });

  it("a deadline still cuts a stream whose Response the SDK lets go of and the collector takes", async () => {
    // The SDK unhooks the caller's signal from its own once the Response (or its web body) is
    // collected; the brain reads the transport's Node stream and drops the Response. Forced here.
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    server = await startAnthropicMockServer([
      { blocks: [{ type: "text", text: ["part0 ", "part1 ", "part2 "] }], cutAfter: 5, ending: "hang" },
    ]);
    const stream = createAnthropicBrain({ apiKey: KEY }).stream(modelAt(server.baseUrl), ask, {
      timeoutMs: 1_000,
      stallTimeoutMs: 60_000,
    });
    const collect = async () => {
      for (let i = 0; i < 5; i++) {
        gc();
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    let collected: Promise<void> | undefined;
    for await (const event of stream) if (event.type === "text_delta") collected ??= collect();
    await collected;
    const message = await stream.result();
    expect(message).toMatchObject({ stopReason: "stop", partialFinalized: true, errorKind: "timeout" });
    expect(assistantText(message)).toBe("part0 part1 ");
  });

  it("a malformed context ends as bad_request instead of hanging or throwing", async () => {
    server = await startAnthropicMockServer([{ blocks: [{ type: "text", text: "never" }] }]);
    const broken = { messages: [{ role: "user" }] } as unknown as Context;
    const message = await createAnthropicBrain({ apiKey: KEY }).stream(modelAt(server.baseUrl), broken).result();
    expect(message).toMatchObject({
      stopReason: "error",
      errorKind: "bad_request",
      errorMessage: expect.stringContaining("could not build the request"),
    });
    expect(server.requests).toHaveLength(0);
  });

  it("a malformed model ends as bad_request instead of throwing", async () => {
    const stream = createAnthropicBrain({ apiKey: KEY }).stream(undefined as unknown as Model, ask);
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
    const message = await createAnthropicBrain({ apiKey: KEY })
      .stream(modelAt(`http://127.0.0.1:${port}`), ask)
      .result();
    expect(message).toMatchObject({ stopReason: "error", errorKind: "network" });
  });

  it("a stream that ends early keeps what arrived: partialFinalized, stop synthesised", async () => {
    // message_start, ping, block start, two deltas — then a clean close with no message_stop.
    const { message, events } = await turn([
      { blocks: [{ type: "text", text: ["The answer ", "is 4", "2."] }], cutAfter: 5, ending: "end" },
    ]);
    expect(message).toMatchObject({ stopReason: "stop", partialFinalized: true, errorKind: "network" });
    expect(assistantText(message)).toBe("The answer is 4");
    expect(events.at(-1)?.type).toBe("done");
  });

  it("a connection reset mid-stream keeps what arrived, partialFinalized", async () => {
    const { message } = await turn([
      { blocks: [{ type: "text", text: ["one ", "two ", "three"] }], cutAfter: 5, ending: "destroy" },
    ]);
    expect(message).toMatchObject({ stopReason: "stop", partialFinalized: true, errorKind: "network" });
    expect(assistantText(message)).toBe("one two ");
  });

  it("a stream that stalls is cut at the stall: what arrived kept, partialFinalized, timeout", async () => {
    const { message } = await turn(
      [{ blocks: [{ type: "text", text: ["still ", "here ", "then silence"] }], cutAfter: 5, ending: "hang" }],
      { stallTimeoutMs: 400 },
    );
    expect(message).toMatchObject({ stopReason: "stop", partialFinalized: true, errorKind: "timeout" });
    expect(assistantText(message)).toBe("still here ");
    expect(message.errorMessage).toContain("stall");
  });

  it("abort via signal ⇒ aborted, keeping what arrived", async () => {
    // message_start, ping, block start and the first delta, then silence: only the abort can end this call.
    server = await startAnthropicMockServer([
      { blocks: [{ type: "text", text: ["first ", "second ", "third"] }], cutAfter: 4, ending: "hang" },
    ]);
    const controller = new AbortController();
    const stream = createAnthropicBrain({ apiKey: KEY }).stream(modelAt(server.baseUrl), ask, {
      signal: controller.signal,
    });
    for await (const event of stream) if (event.type === "text_delta") controller.abort();
    const message = await stream.result();
    expect(message).toMatchObject({ stopReason: "aborted", errorKind: "aborted" });
    expect(assistantText(message)).toBe("first ");
  });

  it("a signal aborted before the call ⇒ aborted", async () => {
    const { message } = await turn([{ blocks: [{ type: "text", text: "never" }] }], { signal: AbortSignal.abort() });
    expect(message).toMatchObject({ stopReason: "aborted", errorKind: "aborted" });
  });
});

describe("content failures", () => {
  it("malformed JSON in tool-use input is kept raw and marked, never silently {}", async () => {
    const { message } = await turn([
      {
        blocks: [{ type: "tool_use", id: "toolu_1", name: "write", input: '{"path": "a.txt", "text": "unterminated}' }],
      },
    ]);
    expect(message.stopReason).toBe("toolUse");
    expect(assistantToolCalls(message)).toEqual([
      {
        type: "toolCall",
        id: "toolu_1",
        name: "write",
        arguments: {},
        rawArguments: '{"path": "a.txt", "text": "unterminated}',
        argumentsError: "malformed_json",
      },
    ]);
  });

  it("tool-use input cut by max_tokens is kept raw and marked truncated", async () => {
    const { message } = await turn([
      {
        kind: "wire",
        reply: {
          kind: "sse",
          ending: "end",
          frames: [
            sseFrame(
              {
                type: "message_start",
                message: {
                  id: "msg_1",
                  type: "message",
                  role: "assistant",
                  content: [],
                  model: "m",
                  stop_reason: null,
                  stop_sequence: null,
                  usage: { input_tokens: 5, output_tokens: 1 },
                },
              },
              "message_start",
            ),
            sseFrame(
              {
                type: "content_block_start",
                index: 0,
                content_block: { type: "tool_use", id: "toolu_1", name: "write", input: {} },
              },
              "content_block_start",
            ),
            sseFrame(
              {
                type: "content_block_delta",
                index: 0,
                delta: { type: "input_json_delta", partial_json: '{"path": "a.txt", "te' },
              },
              "content_block_delta",
            ),
            sseFrame(
              {
                type: "message_delta",
                delta: { stop_reason: "max_tokens", stop_sequence: null },
                usage: { output_tokens: 64 },
              },
              "message_delta",
            ),
            sseFrame({ type: "message_stop" }, "message_stop"),
          ],
        },
      },
    ]);
    expect(message.stopReason).toBe("length");
    expect(assistantToolCalls(message)[0]).toMatchObject({
      arguments: {},
      rawArguments: '{"path": "a.txt", "te',
      argumentsError: "truncated",
    });
  });

  it("an empty reply at the static cap ⇒ length_empty", async () => {
    const { message } = await turn([{ blocks: [], stopReason: "max_tokens" }], { maxTokens: 32 });
    expect(message).toMatchObject({ stopReason: "error", errorKind: "length_empty" });
  });

  it("a looping stream is cut by the repetition guard, keeping the prefix", async () => {
    const loop = Array.from({ length: 120 }, () => "Let me re-read the instructions. ");
    const { message } = await turn([{ blocks: [{ type: "text", text: ["First I list the files. ", ...loop] }] }]);
    expect(message).toMatchObject({ stopReason: "error", errorKind: "degenerate_repetition" });
    const text = assistantText(message);
    expect(text.startsWith("First I list the files.")).toBe(true);
    expect(text.length).toBeLessThan(loop.join("").length / 2);
  });

  it("a looping thinking block is cut too", async () => {
    const loop = Array.from({ length: 120 }, () => "Wait, maybe the answer is different. ");
    const { message } = await turn([
      {
        blocks: [
          { type: "thinking", thinking: ["Consider the sum. ", ...loop], signature: "s" },
          { type: "text", text: "never reached" },
        ],
      },
    ]);
    expect(message).toMatchObject({ stopReason: "error", errorKind: "degenerate_repetition" });
    expect(assistantText(message)).toBe("");
  });
});
