import {
  assistantText,
  assistantToolCalls,
  defineModel,
  type BrainEvent,
  type Context,
  type Model,
} from "@x/llm-types";
import { afterEach, describe, expect, it } from "vitest";
import { createOpenAIBrain } from "./openai-brain";
import { startOpenAIMockServer, type OpenAIMockScript, type OpenAIMockServer } from "./testing";

let server: OpenAIMockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(script: OpenAIMockScript): Promise<OpenAIMockServer> {
  server = await startOpenAIMockServer(script);
  return server;
}

function modelAt(baseUrl: string, extra: Partial<Model> = {}): Model {
  return defineModel({
    id: "gpt-4.1-mini",
    api: "openai-completions",
    provider: "openai",
    baseUrl,
    contextWindow: 128_000,
    maxTokens: 4096,
    cost: { input: 0.4, output: 1.6, cacheRead: 0.1 },
    ...extra,
  });
}

async function collect(stream: AsyncIterable<BrainEvent>): Promise<BrainEvent[]> {
  const events: BrainEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

const ask: Context = { systemPrompt: "be brief", messages: [{ role: "user", content: "hello" }] };

describe("createOpenAIBrain", () => {
  it("streams text deltas into a finished turn with usage, cached tokens and cost", async () => {
    const s = await serve([{ text: ["Hel", "lo", " there"], usage: { prompt: 1200, completion: 10, cached: 1000 } }]);
    const brain = createOpenAIBrain({ apiKey: "sk-test-123456" });
    const stream = brain.stream(modelAt(s.baseUrl), ask);
    const events = await collect(stream);
    const message = await stream.result();

    expect(events.map((e) => e.type)).toEqual([
      "start",
      "text_start",
      "text_delta",
      "text_delta",
      "text_delta",
      "text_end",
      "done",
    ]);
    expect(assistantText(message)).toBe("Hello there");
    expect(message.stopReason).toBe("stop");
    expect(message.errorKind).toBeUndefined();
    expect(message.responseId).toBe("chatcmpl-mock");
    expect(message.usage).toMatchObject({ input: 200, output: 10, cacheRead: 1000, cacheWrite: 0, totalTokens: 1210 });
    expect(message.usage.estimated).toBeUndefined();
    // 200 × 0.4 + 10 × 1.6 + 1000 × 0.1 micro-dollars
    expect(message.usage.cost).toEqual({ input: 80, output: 16, cacheRead: 100, cacheWrite: 0, total: 196 });
    expect(brain.api).toBe("openai-completions");

    const [request] = s.requests;
    expect(request!.headers.authorization).toBe("Bearer sk-test-123456");
    expect(request!.body).toMatchObject({
      model: "gpt-4.1-mini",
      stream: true,
      stream_options: { include_usage: true },
      messages: [
        { role: "system", content: "be brief" },
        { role: "user", content: "hello" },
      ],
    });
  });

  it("honours the model's baseUrl and headers per call, with brain and request headers merged", async () => {
    const a = await startOpenAIMockServer([{ text: "from a" }]);
    const b = await startOpenAIMockServer([{ text: "from b" }]);
    try {
      const brain = createOpenAIBrain({ apiKey: "sk-test-abcdef", headers: { "x-brain": "1", "x-over": "brain" } });
      const first = await brain
        .stream(modelAt(a.baseUrl, { headers: { "x-model": "a", "x-over": "model" } }), ask)
        .result();
      const second = await brain.stream(modelAt(b.baseUrl), ask, { headers: { "x-over": "request" } }).result();
      expect(assistantText(first)).toBe("from a");
      expect(assistantText(second)).toBe("from b");
      expect(a.requests[0]!.headers).toMatchObject({ "x-brain": "1", "x-model": "a", "x-over": "model" });
      expect(b.requests[0]!.headers).toMatchObject({ "x-brain": "1", "x-over": "request" });
      expect(b.requests[0]!.headers).not.toHaveProperty("x-model");
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("carries calls on a caller's fetch when given one, reading its web body", async () => {
    const s = await serve([{ text: ["through ", "your fetch"] }, { text: "twice" }]);
    const urls: string[] = [];
    const fetch: typeof globalThis.fetch = (input, init) => {
      urls.push(input instanceof Request ? input.url : input.toString());
      return globalThis.fetch(input, init);
    };
    const brain = createOpenAIBrain({ apiKey: "sk-test-abcdef", fetch });
    expect(assistantText(await brain.stream(modelAt(s.baseUrl), ask).result())).toBe("through your fetch");
    expect(assistantText(await brain.stream(modelAt(s.baseUrl), ask).result())).toBe("twice");
    expect(urls).toEqual([`${s.baseUrl}/chat/completions`, `${s.baseUrl}/chat/completions`]);
  });

  it("sends no Authorization header to a keyless local gateway", async () => {
    const s = await serve([{ text: "ok" }]);
    const saved = process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_API_KEY;
    try {
      const message = await createOpenAIBrain()
        .stream(modelAt(s.baseUrl, { provider: "ollama", id: "qwen3:8b" }), ask)
        .result();
      expect(assistantText(message)).toBe("ok");
      expect(s.requests[0]!.headers).not.toHaveProperty("authorization");
    } finally {
      if (saved !== undefined) process.env.OPENAI_API_KEY = saved;
    }
  });

  it("reads reasoning text from reasoning_content (vLLM) and reasoning (OpenRouter, Ollama)", async () => {
    const s = await serve([
      { reasoning: ["Let me ", "think."], text: "42", usage: { prompt: 10, completion: 30, reasoning: 20 } },
      { reasoning: "Thinking again.", reasoningField: "reasoning", text: "43" },
    ]);
    const brain = createOpenAIBrain({ apiKey: "sk-test-123456" });
    const model = modelAt(s.baseUrl, { id: "Qwen/Qwen3-8B", provider: "vllm", reasoning: true });
    const stream = brain.stream(model, ask, { reasoning: "high" });
    const events = await collect(stream);
    const first = await stream.result();
    expect(first.content).toEqual([
      { type: "thinking", thinking: "Let me think." },
      { type: "text", text: "42" },
    ]);
    expect(first.usage.reasoning).toBe(20);
    expect(events.map((e) => e.type)).toEqual([
      "start",
      "thinking_start",
      "thinking_delta",
      "thinking_delta",
      "thinking_end",
      "text_start",
      "text_delta",
      "text_end",
      "done",
    ]);
    const second = await brain.stream(model, ask, { reasoning: "off" }).result();
    expect(second.content).toEqual([
      { type: "thinking", thinking: "Thinking again." },
      { type: "text", text: "43" },
    ]);
    expect(s.bodies()[0]).toMatchObject({ chat_template_kwargs: { enable_thinking: true }, max_tokens: 4096 });
    expect(s.bodies()[1]).toMatchObject({ chat_template_kwargs: { enable_thinking: false } });
  });

  it("sends reasoning_effort to OpenAI reasoning models through the compat option", async () => {
    const s = await serve([{ text: "ok" }]);
    const brain = createOpenAIBrain({
      apiKey: "sk-test-123456",
      compat: { thinkingSwitch: "reasoning_effort", maxTokensField: "max_completion_tokens" },
    });
    await brain
      .stream(modelAt(s.baseUrl, { id: "o4-mini", reasoning: true }), ask, { reasoning: "low", maxTokens: 999 })
      .result();
    expect(s.bodies()[0]).toMatchObject({ reasoning_effort: "low", max_completion_tokens: 999 });
  });

  it("assembles tool calls from streamed argument fragments and runs a multi-turn tool loop", async () => {
    const s = await serve([
      {
        text: "Checking both.",
        toolCalls: [
          { id: "call_a", name: "weather", arguments: { city: "Paris", unit: "C" } },
          { id: "call_b", name: "weather", arguments: { city: "Oslo", unit: "C" } },
        ],
      },
      { text: "Paris 21°C, Oslo 12°C." },
    ]);
    const brain = createOpenAIBrain({ apiKey: "sk-test-123456" });
    const model = modelAt(s.baseUrl);
    const context: Context = {
      messages: [{ role: "user", content: "weather in Paris and Oslo?" }],
      tools: [
        {
          name: "weather",
          description: "current weather",
          parameters: { type: "object", properties: { city: { type: "string" } } },
        },
      ],
    };
    const stream = brain.stream(model, context);
    const events = await collect(stream);
    const first = await stream.result();
    expect(first.stopReason).toBe("toolUse");
    expect(assistantToolCalls(first)).toEqual([
      { type: "toolCall", id: "call_a", name: "weather", arguments: { city: "Paris", unit: "C" } },
      { type: "toolCall", id: "call_b", name: "weather", arguments: { city: "Oslo", unit: "C" } },
    ]);
    expect(events.filter((e) => e.type === "toolcall_delta").length).toBeGreaterThan(2);

    context.messages.push(
      first,
      {
        role: "toolResult",
        toolCallId: "call_a",
        toolName: "weather",
        content: [{ type: "text", text: "21°C" }],
        isError: false,
      },
      {
        role: "toolResult",
        toolCallId: "call_b",
        toolName: "weather",
        content: [{ type: "text", text: "12°C" }],
        isError: false,
      },
    );
    const second = await brain.stream(model, context).result();
    expect(assistantText(second)).toBe("Paris 21°C, Oslo 12°C.");
    const body = s.bodies()[1]!;
    expect(body.tools).toEqual([
      {
        type: "function",
        function: {
          name: "weather",
          description: "current weather",
          parameters: { type: "object", properties: { city: { type: "string" } } },
        },
      },
    ]);
    expect(body.messages).toEqual([
      { role: "user", content: "weather in Paris and Oslo?" },
      {
        role: "assistant",
        content: "Checking both.",
        tool_calls: [
          { id: "call_a", type: "function", function: { name: "weather", arguments: '{"city":"Paris","unit":"C"}' } },
          { id: "call_b", type: "function", function: { name: "weather", arguments: '{"city":"Oslo","unit":"C"}' } },
        ],
      },
      { role: "tool", tool_call_id: "call_a", content: "21°C" },
      { role: "tool", tool_call_id: "call_b", content: "12°C" },
    ]);
  });

  it("maps finish reasons: length keeps text, stop with tool calls is toolUse", async () => {
    const s = await serve([
      { text: "partial answ", finishReason: "length" },
      { toolCalls: [{ id: "call_1", name: "ls", arguments: {} }], finishReason: "stop" },
    ]);
    const brain = createOpenAIBrain({ apiKey: "sk-test-123456" });
    const cut = await brain.stream(modelAt(s.baseUrl), ask).result();
    expect(cut.stopReason).toBe("length");
    expect(assistantText(cut)).toBe("partial answ");
    const tool = await brain.stream(modelAt(s.baseUrl), ask).result();
    expect(tool.stopReason).toBe("toolUse");
  });

  it("estimates usage when the gateway sends no usage chunk", async () => {
    const s = await serve((request) => {
      const body = request.body as { stream_options?: unknown };
      delete body.stream_options;
      return { text: "no usage here" };
    });
    const message = await createOpenAIBrain({ apiKey: "sk-test-123456" }).stream(modelAt(s.baseUrl), ask).result();
    expect(message.usage.estimated).toBe(true);
    expect(message.usage.output).toBeGreaterThan(0);
  });
});
