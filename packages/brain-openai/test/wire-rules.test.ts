import { defineModel, type Context } from "@x/llm-types";
import { describe, expect, it } from "vitest";
import { buildOpenAIRequest, type OpenAIRequestBody } from "../src/request";
import { resolveCompat } from "../src/compat";

/** A history with a tool round trip, the shape a runner sends on its second call. */
const context: Context = {
  systemPrompt: "Be brief.",
  tools: [{ name: "read", description: "Read a file", parameters: { type: "object", properties: {} } }],
  messages: [
    { role: "user", content: "Read a.txt" },
    {
      role: "assistant",
      content: [{ type: "toolCall", id: "call_1", name: "read", arguments: { path: "a.txt" } }],
      api: "openai-completions",
      provider: "openai",
      model: "m",
      usage: {
        input: 0,
        output: 0,
        cacheRead: 0,
        cacheWrite: 0,
        totalTokens: 0,
        cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
      },
      stopReason: "toolUse",
      timestamp: 0,
    },
    {
      role: "toolResult",
      toolCallId: "call_1",
      toolName: "read",
      content: [{ type: "text", text: "hi" }],
      isError: false,
      timestamp: 0,
    },
  ],
};

const HOSTS = {
  openai: "https://api.openai.com/v1",
  azure: "https://my-resource.openai.azure.com/openai/v1",
  azureFoundry: "https://my-project.services.ai.azure.com/openai/v1",
  xai: "https://api.x.ai/v1",
  groq: "https://api.groq.com/openai/v1",
  deepseek: "https://api.deepseek.com",
  mistral: "https://api.mistral.ai/v1",
  dashscope: "https://dashscope-intl.aliyuncs.com/compatible-mode/v1",
  openrouter: "https://openrouter.ai/api/v1",
  vllm: "http://127.0.0.1:8000/v1",
  ollama: "http://127.0.0.1:11434/v1",
} as const;

function body(baseUrl: string, reasoning: "off" | "high" = "high"): OpenAIRequestBody {
  const model = defineModel({
    id: "m",
    api: "openai-completions",
    provider: "p",
    baseUrl,
    reasoning: true,
    contextWindow: 100_000,
    maxTokens: 2048,
  });
  return buildOpenAIRequest(model, context, { reasoning }, resolveCompat(model, baseUrl, undefined));
}

describe("request side: the providers' documented wire rules", () => {
  it.each(Object.entries(HOSTS))("%s: streams with usage, tool results answer the call ids before them", (_, url) => {
    const sent = body(url);
    expect(sent.stream).toBe(true);
    expect(sent.stream_options).toEqual({ include_usage: true });
    const messages = sent.messages;
    messages.forEach((message, i) => {
      if (message.role !== "tool") return;
      const asked = messages.slice(0, i).findLast((m) => m.role === "assistant");
      const ids = asked && "tool_calls" in asked ? (asked.tool_calls ?? []).map((call) => call.id) : [];
      expect(ids).toContain(message.tool_call_id);
    });
    for (const message of messages) {
      if (message.role !== "assistant") continue;
      for (const call of message.tool_calls ?? []) {
        if (call.type === "function") expect(() => JSON.parse(call.function.arguments)).not.toThrow();
      }
    }
  });

  it.each(["openai", "azure", "azureFoundry"] as const)(
    "%s: max_completion_tokens and reasoning_effort only (reasoning models refuse max_tokens and unknown fields)",
    (host) => {
      const sent = body(HOSTS[host]);
      expect(sent).not.toHaveProperty("max_tokens");
      expect(sent.max_completion_tokens).toBe(2048);
      expect(sent).not.toHaveProperty("chat_template_kwargs");
      expect(sent.reasoning_effort).toBe("high");
      expect(["none", "minimal", "low", "medium", "high"]).toContain(
        body(HOSTS[host], "off").reasoning_effort ?? "none",
      );
    },
  );

  it("only OpenAI itself gets prompt_cache_key", () => {
    const model = defineModel({
      id: "m",
      api: "openai-completions",
      provider: "p",
      baseUrl: HOSTS.azure,
      contextWindow: 1000,
      maxTokens: 10,
    });
    const azure = buildOpenAIRequest(model, context, { cacheKey: "k" }, resolveCompat(model, HOSTS.azure, undefined));
    expect(azure).not.toHaveProperty("prompt_cache_key");
    const openai = buildOpenAIRequest(model, context, { cacheKey: "k" }, resolveCompat(model, HOSTS.openai, undefined));
    expect(openai.prompt_cache_key).toBe("k");
  });

  it.each([
    ["xai", { reasoning_effort: "high" }],
    ["groq", { reasoning_effort: "high" }],
    ["dashscope", { enable_thinking: true }],
    ["openrouter", { reasoning: { effort: "high" } }],
    ["vllm", { chat_template_kwargs: { enable_thinking: true } }],
  ] as const)("%s: reasoning is spelled the way the host documents it", (host, fields) => {
    const sent = body(HOSTS[host]);
    expect(sent).toMatchObject(fields);
    expect(sent.max_tokens).toBe(2048);
  });

  it.each(["deepseek", "mistral"] as const)("%s: no reasoning field (the model id chooses reasoning)", (host) => {
    const sent = body(HOSTS[host]);
    for (const field of ["reasoning_effort", "chat_template_kwargs", "enable_thinking", "reasoning"])
      expect(sent).not.toHaveProperty(field);
  });

  it("DashScope: thinking off is the top-level enable_thinking false, never chat_template_kwargs", () => {
    const sent = body(HOSTS.dashscope, "off");
    expect(sent.enable_thinking).toBe(false);
    expect(sent).not.toHaveProperty("chat_template_kwargs");
  });
});
