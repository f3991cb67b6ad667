import {
  assistantText,
  assistantToolCalls,
  defineModel,
  type BrainEvent,
  type Context,
  type Model,
} from "@x/llm-types";
import { afterEach, describe, expect, it } from "vitest";
import { createAnthropicBrain } from "./anthropic-brain";
import { startAnthropicMockServer, type AnthropicMockScript, type AnthropicMockServer } from "./testing";

const KEY = "sk-ant-test-0123456789";
let server: AnthropicMockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(script: AnthropicMockScript): Promise<AnthropicMockServer> {
  server = await startAnthropicMockServer(script);
  return server;
}

function modelAt(baseUrl: string, extra: Partial<Model> = {}): Model {
  return defineModel({
    id: "claude-sonnet-4-6",
    api: "anthropic-messages",
    provider: "anthropic",
    baseUrl,
    reasoning: true,
    contextWindow: 200_000,
    maxTokens: 16_000,
    cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
    ...extra,
  });
}

async function collect(stream: AsyncIterable<BrainEvent>): Promise<BrainEvent[]> {
  const events: BrainEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

const weatherTool = {
  name: "weather",
  description: "current weather",
  parameters: { type: "object", properties: { city: { type: "string" } } },
};

describe("createAnthropicBrain", () => {
  it("streams text with usage incl. cache read and write, priced in micro-dollars", async () => {
    const s = await serve([
      {
        blocks: [{ type: "text", text: ["Hello", " there"] }],
        usage: { input: 20, output: 5, cacheRead: 1000, cacheWrite: 200 },
      },
    ]);
    const brain = createAnthropicBrain({ apiKey: KEY });
    const stream = brain.stream(modelAt(s.baseUrl), {
      systemPrompt: "be brief",
      messages: [{ role: "user", content: "hi" }],
    });
    const events = await collect(stream);
    const message = await stream.result();
    expect(brain.api).toBe("anthropic-messages");
    expect(events.map((e) => e.type)).toEqual(["start", "text_start", "text_delta", "text_delta", "text_end", "done"]);
    expect(message).toMatchObject({
      stopReason: "stop",
      responseId: "msg_mock",
      api: "anthropic-messages",
      model: "claude-sonnet-4-6",
    });
    expect(assistantText(message)).toBe("Hello there");
    expect(message.usage).toMatchObject({ input: 20, output: 5, cacheRead: 1000, cacheWrite: 200, totalTokens: 1225 });
    // 20×3 + 5×15 + 1000×0.3 + 200×3.75
    expect(message.usage.cost).toEqual({ input: 60, output: 75, cacheRead: 300, cacheWrite: 750, total: 1185 });
    const request = s.requests[0]!;
    expect(request.path).toBe("/v1/messages");
    expect(request.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request.headers["anthropic-version"]).toBeDefined();
    expect(request.body).toMatchObject({ model: "claude-sonnet-4-6", max_tokens: 16_000, stream: true });
  });

  it("honours the model's baseUrl (with or without /v1) and headers per call", async () => {
    const s = await serve([{ blocks: [{ type: "text", text: "a" }] }, { blocks: [{ type: "text", text: "b" }] }]);
    const brain = createAnthropicBrain({ apiKey: KEY, headers: { "anthropic-beta": "brain-beta" } });
    await brain
      .stream(modelAt(`${s.baseUrl}/v1/`, { headers: { "x-model": "1" } }), {
        messages: [{ role: "user", content: "x" }],
      })
      .result();
    await brain
      .stream(
        modelAt(s.baseUrl),
        { messages: [{ role: "user", content: "x" }] },
        { headers: { "anthropic-beta": "request-beta" } },
      )
      .result();
    expect(s.requests.map((r) => r.path)).toEqual(["/v1/messages", "/v1/messages"]);
    expect(s.requests[0]!.headers).toMatchObject({ "anthropic-beta": "brain-beta", "x-model": "1" });
    expect(s.requests[1]!.headers).toMatchObject({ "anthropic-beta": "request-beta" });
  });

  it("carries calls on a caller's fetch when given one, reading its web body", async () => {
    const s = await serve([
      { blocks: [{ type: "text", text: ["through ", "your fetch"] }] },
      { blocks: [{ type: "text", text: "twice" }] },
    ]);
    const urls: string[] = [];
    const fetch: typeof globalThis.fetch = (input, init) => {
      urls.push(input instanceof Request ? input.url : input.toString());
      return globalThis.fetch(input, init);
    };
    const brain = createAnthropicBrain({ apiKey: KEY, fetch });
    const ask: Context = { messages: [{ role: "user", content: "x" }] };
    expect(assistantText(await brain.stream(modelAt(s.baseUrl), ask).result())).toBe("through your fetch");
    expect(assistantText(await brain.stream(modelAt(s.baseUrl), ask).result())).toBe("twice");
    expect(urls).toEqual([`${s.baseUrl}/v1/messages`, `${s.baseUrl}/v1/messages`]);
  });

  it("keeps thinking with its signature and sends it back on the next turn of a tool loop", async () => {
    const s = await serve([
      {
        blocks: [
          { type: "thinking", thinking: ["The user wants ", "the weather."], signature: "sig-abc" },
          { type: "redacted_thinking", data: "ENCRYPTED" },
          { type: "text", text: "Let me check." },
          { type: "tool_use", id: "toolu_1", name: "weather", input: { city: "Paris" } },
        ],
      },
      {
        blocks: [
          { type: "thinking", thinking: "Got it.", signature: "sig-def" },
          { type: "text", text: "21°C in Paris." },
        ],
      },
    ]);
    const brain = createAnthropicBrain({ apiKey: KEY });
    // The catalog entry picks fixed budgets (claude-sonnet-4-6 would default to adaptive).
    const model = { ...modelAt(s.baseUrl), thinkingStyle: "budget" as const };
    const context: Context = {
      systemPrompt: "sys",
      tools: [weatherTool],
      messages: [{ role: "user", content: "weather in Paris?" }],
    };
    const stream = brain.stream(model, context, { reasoning: "medium" });
    const events = await collect(stream);
    const first = await stream.result();
    expect(first.stopReason).toBe("toolUse");
    expect(first.content).toEqual([
      { type: "thinking", thinking: "The user wants the weather.", signature: "sig-abc" },
      { type: "thinking", thinking: "ENCRYPTED", redacted: true },
      { type: "text", text: "Let me check." },
      { type: "toolCall", id: "toolu_1", name: "weather", arguments: { city: "Paris" } },
    ]);
    expect(events.filter((e) => e.type === "toolcall_delta").length).toBeGreaterThan(1);
    expect(s.bodies()[0]).toMatchObject({ thinking: { type: "enabled", budget_tokens: 10_000 } });

    context.messages.push(first, {
      role: "toolResult",
      toolCallId: "toolu_1",
      toolName: "weather",
      content: [{ type: "text", text: "21°C" }],
      isError: false,
    });
    const second = await brain.stream(model, context, { reasoning: "medium" }).result();
    expect(assistantText(second)).toBe("21°C in Paris.");
    expect(second.content[0]).toEqual({ type: "thinking", thinking: "Got it.", signature: "sig-def" });
    const sent = s.bodies()[1]!.messages as Array<{ role: string; content: unknown }>;
    expect(sent[1]).toEqual({
      role: "assistant",
      content: [
        { type: "thinking", thinking: "The user wants the weather.", signature: "sig-abc" },
        { type: "redacted_thinking", data: "ENCRYPTED" },
        { type: "text", text: "Let me check." },
        { type: "tool_use", id: "toolu_1", name: "weather", input: { city: "Paris" } },
      ],
    });
    expect(sent[2]).toEqual({
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "toolu_1",
          content: [{ type: "text", text: "21°C" }],
          is_error: false,
          cache_control: { type: "ephemeral" },
        },
      ],
    });
  });

  it("sends no thinking parameter when reasoning is off", async () => {
    const s = await serve([{ blocks: [{ type: "text", text: "ok" }] }]);
    await createAnthropicBrain({ apiKey: KEY })
      .stream(modelAt(s.baseUrl), { messages: [{ role: "user", content: "x" }] }, { reasoning: "off" })
      .result();
    expect(s.bodies()[0]).not.toHaveProperty("thinking");
  });

  it("puts cache breakpoints on system, last tool and history, and keeps the prefix stable across turns", async () => {
    const s = await serve([
      { blocks: [{ type: "tool_use", id: "toolu_1", name: "weather", input: { city: "Oslo" } }] },
      { blocks: [{ type: "tool_use", id: "toolu_2", name: "weather", input: { city: "Rome" } }] },
      { blocks: [{ type: "text", text: "done" }] },
    ]);
    const brain = createAnthropicBrain({ apiKey: KEY });
    const model = modelAt(s.baseUrl);
    const context: Context = {
      systemPrompt: "You are a weather bot.",
      tools: [{ ...weatherTool, name: "geo" }, weatherTool],
      messages: [{ role: "user", content: "Oslo then Rome" }],
    };
    for (let i = 1; i <= 3; i++) {
      const reply = await brain.stream(model, context).result();
      context.messages.push(reply);
      const call = assistantToolCalls(reply)[0];
      if (call)
        context.messages.push({
          role: "toolResult",
          toolCallId: call.id,
          toolName: call.name,
          content: [{ type: "text", text: `sunny ${i}` }],
          isError: false,
        });
    }
    const [one, two, three] = s.bodies() as Array<{
      system: unknown;
      tools: Array<Record<string, unknown>>;
      messages: unknown[];
    }>;
    expect(one!.system).toEqual([
      { type: "text", text: "You are a weather bot.", cache_control: { type: "ephemeral" } },
    ]);
    expect(one!.tools.map((t) => t.cache_control)).toEqual([undefined, { type: "ephemeral" }]);
    expect(one!.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "Oslo then Rome", cache_control: { type: "ephemeral" } }] },
    ]);
    for (const body of [one!, two!, three!])
      expect(JSON.stringify(body).split('"cache_control"').length - 1).toBeLessThanOrEqual(4);
    // Each request starts with exactly the blocks of the one before (system, tools, messages).
    expect(two!.system).toEqual(one!.system);
    expect(two!.tools).toEqual(one!.tools);
    expect(two!.messages.slice(0, one!.messages.length)).toEqual(one!.messages);
    expect(three!.system).toEqual(two!.system);
    expect(three!.messages.slice(1, two!.messages.length)).toEqual(two!.messages.slice(1));
    expect(JSON.stringify(three!.messages.at(-1))).toContain("cache_control");
  });

  it("maps stop reasons: max_tokens ⇒ length, refusal ⇒ content_filter, pause_turn ⇒ stop", async () => {
    const s = await serve([
      { blocks: [{ type: "text", text: "cut here" }], stopReason: "max_tokens" },
      { blocks: [{ type: "text", text: "I can't" }], stopReason: "refusal" },
      { blocks: [{ type: "text", text: "pausing" }], stopReason: "pause_turn" },
    ]);
    const brain = createAnthropicBrain({ apiKey: KEY });
    const ask: Context = { messages: [{ role: "user", content: "x" }] };
    const length = await brain.stream(modelAt(s.baseUrl), ask).result();
    expect(length).toMatchObject({ stopReason: "length" });
    expect(assistantText(length)).toBe("cut here");
    expect(await brain.stream(modelAt(s.baseUrl), ask).result()).toMatchObject({
      stopReason: "error",
      errorKind: "content_filter",
    });
    expect(await brain.stream(modelAt(s.baseUrl), ask).result()).toMatchObject({ stopReason: "stop" });
  });

  it("without an API key every call is an auth failure and nothing is sent", async () => {
    const s = await serve([{ blocks: [{ type: "text", text: "never" }] }]);
    const saved = process.env.ANTHROPIC_API_KEY;
    delete process.env.ANTHROPIC_API_KEY;
    try {
      const message = await createAnthropicBrain()
        .stream(modelAt(s.baseUrl), { messages: [{ role: "user", content: "x" }] })
        .result();
      expect(message).toMatchObject({ stopReason: "error", errorKind: "auth" });
      expect(s.requests).toHaveLength(0);
    } finally {
      if (saved !== undefined) process.env.ANTHROPIC_API_KEY = saved;
    }
  });
});
