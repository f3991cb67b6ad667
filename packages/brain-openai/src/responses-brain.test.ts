import {
  assistantText,
  assistantToolCalls,
  defineModel,
  emptyUsage,
  type BrainRequest,
  type Context,
  type Model,
} from "@x/llm-types";
import { afterEach, describe, expect, it } from "vitest";
import { createOpenAIResponsesBrain } from "./responses-brain";
import { startResponsesMockServer, type OpenAIMockScript, type OpenAIMockServer } from "./testing";

const KEY = "sk-live-SECRET-0123456789abcdef";
let server: OpenAIMockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function modelAt(baseUrl: string, extra: Partial<Model> = {}): Model {
  return defineModel({
    id: "gpt-5-mini",
    api: "openai-responses",
    provider: "openai",
    baseUrl,
    reasoning: true,
    contextWindow: 400_000,
    maxTokens: 4096,
    cost: { input: 0.25, output: 2, cacheRead: 0.025 },
    ...extra,
  });
}
const ask: Context = { messages: [{ role: "user", content: "hello" }] };

async function turn(script: OpenAIMockScript, request: BrainRequest = {}, context: Context = ask) {
  server = await startResponsesMockServer(script);
  return createOpenAIResponsesBrain({ apiKey: KEY }).stream(modelAt(server.baseUrl), context, request).result();
}

describe("the Responses brain on the loopback server", () => {
  it("streams reasoning summaries, text and usage with cached and reasoning tokens", async () => {
    const message = await turn([
      {
        reasoning: ["Think", "ing."],
        text: ["Hel", "lo"],
        usage: { prompt: 120, completion: 40, cached: 100, reasoning: 30 },
      },
    ]);
    expect(assistantText(message)).toBe("Hello");
    expect(message.content[0]).toMatchObject({ type: "thinking", thinking: "Thinking." });
    expect(message.usage).toMatchObject({ input: 20, cacheRead: 100, output: 40, reasoning: 30, totalTokens: 160 });
    expect(message).toMatchObject({ stopReason: "stop", api: "openai-responses", responseId: "resp_mock" });
  });

  it("sends a stateless request: store false, encrypted reasoning, effort and summary, max_output_tokens", async () => {
    await turn(
      [{ text: "ok" }],
      { reasoning: "high", maxTokens: 900, cacheKey: "k" },
      { systemPrompt: "Be brief.", ...ask },
    );
    expect(server!.bodies()[0]).toMatchObject({
      model: "gpt-5-mini",
      stream: true,
      store: false,
      include: ["reasoning.encrypted_content"],
      reasoning: { effort: "high", summary: "auto" },
      max_output_tokens: 900,
      instructions: "Be brief.",
    });
    expect(server!.bodies()[0]).not.toHaveProperty("prompt_cache_key"); // a loopback host is not OpenAI
  });

  it("replays the reasoning item (id and encrypted content) with its function call on the next turn", async () => {
    const first = await turn([
      { reasoning: "plan", toolCalls: [{ id: "call_1", name: "read", arguments: { path: "a" } }] },
    ]);
    expect(first.stopReason).toBe("toolUse");
    const [call] = assistantToolCalls(first);
    expect(call).toMatchObject({ id: "call_1|fc_call_1", name: "read", arguments: { path: "a" } });
    await server!.close();
    const context: Context = {
      messages: [
        ...ask.messages,
        first,
        {
          role: "toolResult",
          toolCallId: call!.id,
          toolName: "read",
          content: [{ type: "text", text: "A" }],
          isError: false,
          timestamp: 0,
        },
      ],
    };
    await turn([{ text: "done" }], { reasoning: "low" }, context);
    expect(server!.bodies()[0]!.input).toEqual([
      { role: "user", content: "hello" },
      {
        type: "reasoning",
        id: "rs_mock",
        summary: [{ type: "summary_text", text: "plan" }],
        encrypted_content: "gAAAA-mock-encrypted",
      },
      { type: "function_call", call_id: "call_1", name: "read", arguments: '{"path":"a"}', id: "fc_call_1" },
      { type: "function_call_output", call_id: "call_1", output: "A" },
    ]);
  });

  it("thinking from another API is not replayed; its tool call goes back with its call id", async () => {
    const foreign = {
      role: "assistant" as const,
      content: [
        { type: "thinking" as const, thinking: "secret", signature: "sig-from-anthropic" },
        { type: "toolCall" as const, id: "toolu_1", name: "read", arguments: {} },
      ],
      api: "anthropic-messages",
      provider: "anthropic",
      model: "claude",
      usage: emptyUsage(),
      stopReason: "toolUse" as const,
      timestamp: 0,
    };
    const context: Context = {
      messages: [
        ...ask.messages,
        foreign,
        {
          role: "toolResult",
          toolCallId: "toolu_1",
          toolName: "read",
          content: [{ type: "text", text: "x" }],
          isError: false,
          timestamp: 0,
        },
      ],
    };
    await turn([{ text: "ok" }], {}, context);
    const input = server!.bodies()[0]!.input as Array<{ type?: string }>;
    expect(input.filter((item) => item.type === "reasoning")).toEqual([]);
    expect(input).toContainEqual({ type: "function_call", call_id: "toolu_1", name: "read", arguments: "{}" });
  });
});

describe("Responses failures become typed turns, like every brain's", () => {
  it.each([
    [429, "Rate limit reached", "rate_limited"],
    [401, "Incorrect API key", "auth"],
    [400, "Your input exceeds the context window of this model", "context_overflow"],
    [400, "Invalid value for 'input'", "bad_request"],
    [503, "The server is overloaded", "overloaded"],
    [500, "The server had an error", "provider"],
  ] as const)("HTTP %i ⇒ its kind", async (status, text, kind) => {
    const message = await turn([{ kind: "error", error: { status, message: text, headers: { "retry-after": "2" } } }]);
    expect(message).toMatchObject({ stopReason: "error", errorKind: kind });
    expect(message.errorMessage).toContain(text);
  });

  it("an error event inside the stream is typed, keeping what arrived", async () => {
    const message = await turn([
      {
        text: "par",
        streamError: { message: "You exceeded your current quota", code: "insufficient_quota" },
        finishReason: null,
      },
    ]);
    expect(message).toMatchObject({ stopReason: "error", errorKind: "rate_limited" });
  });

  it("a reset before any response ⇒ network; a drop mid-stream keeps the text, partialFinalized", async () => {
    expect(await turn([{ kind: "drop" }])).toMatchObject({ stopReason: "error", errorKind: "network" });
    await server!.close();
    const cut = await turn([{ text: ["kept ", "lost"], cutAfter: 3, ending: "destroy" }]);
    expect(cut).toMatchObject({ stopReason: "stop", partialFinalized: true, errorKind: "network" });
    expect(assistantText(cut)).toBe("kept ");
  });

  it("a stall is cut at the stall timer ⇒ timeout; a deadline ⇒ timeout", async () => {
    const stalled = await turn([{ text: ["a", "b"], cutAfter: 3, ending: "hang" }], { stallTimeoutMs: 300 });
    expect(stalled).toMatchObject({ partialFinalized: true, errorKind: "timeout" });
    await server!.close();
    expect(await turn([{ kind: "hang" }], { timeoutMs: 300 })).toMatchObject({
      stopReason: "error",
      errorKind: "timeout",
    });
  });

  it("abort via signal ⇒ aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    expect(await turn([{ text: "x" }], { signal: controller.signal })).toMatchObject({ stopReason: "aborted" });
  });

  it("max_output_tokens with nothing produced ⇒ length_empty; with text ⇒ length", async () => {
    expect(await turn([{ reasoning: "long thought", finishReason: "length" }])).toMatchObject({
      stopReason: "error",
      errorKind: "length_empty",
    });
    await server!.close();
    expect(await turn([{ text: "partial", finishReason: "length" }])).toMatchObject({ stopReason: "length" });
  });

  it("an incomplete response for content_filter ⇒ content_filter", async () => {
    expect(await turn([{ text: "x", finishReason: "content_filter" }])).toMatchObject({ errorKind: "content_filter" });
  });

  it("malformed tool-call JSON is kept raw and marked", async () => {
    const message = await turn([{ toolCalls: [{ id: "c", name: "read", arguments: '{"path": "a' }] }]);
    expect(assistantToolCalls(message)[0]).toMatchObject({
      argumentsError: "malformed_json",
      rawArguments: '{"path": "a',
    });
  });

  it("a looping stream is cut by the repetition guard", async () => {
    const message = await turn([{ text: Array.from({ length: 400 }, () => "again and again ") }]);
    expect(message).toMatchObject({ stopReason: "error", errorKind: "degenerate_repetition" });
  });

  it("the API key never appears in any message, even when echoed", async () => {
    const message = await turn([{ kind: "error", error: { status: 401, message: `bad key ${KEY}` } }]);
    expect(JSON.stringify(message)).not.toContain(KEY);
  });
});
