import { defineModel, emptyUsage, type AssistantMessage, type Context } from "@x/llm-types";
import { describe, expect, it } from "vitest";
import { resolveCompat } from "./compat";
import { buildOpenAIRequest, toOpenAIMessages } from "./request";

const gpt = defineModel({
  id: "gpt-4.1-mini",
  api: "openai-completions",
  provider: "openai",
  baseUrl: "https://api.openai.com/v1",
  contextWindow: 1_000_000,
  maxTokens: 32_000,
  input: ["text", "image"],
});
const o4 = defineModel({
  id: "o4-mini",
  api: "openai-completions",
  provider: "openai",
  baseUrl: "https://api.openai.com/v1",
  reasoning: true,
  thinkingOff: false,
  contextWindow: 200_000,
  maxTokens: 100_000,
});
const qwen = defineModel({
  id: "Qwen/Qwen3-8B",
  api: "openai-completions",
  provider: "vllm",
  baseUrl: "http://127.0.0.1:8000/v1",
  reasoning: true,
  contextWindow: 32_768,
  maxTokens: 8192,
});

function assistant(content: AssistantMessage["content"]): AssistantMessage {
  return {
    role: "assistant",
    content,
    api: "openai-completions",
    provider: "openai",
    model: "gpt-4.1-mini",
    usage: emptyUsage(),
    stopReason: "toolUse",
    timestamp: 0,
  };
}

describe("toOpenAIMessages", () => {
  it("maps user, assistant tool calls, tool results and images", () => {
    const context: Context = {
      systemPrompt: "be brief",
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "what is in this picture?" },
            { type: "image", data: "AAAA", mimeType: "image/png" },
          ],
        },
        assistant([
          { type: "thinking", thinking: "let me look" },
          { type: "text", text: "checking" },
          { type: "toolCall", id: "call_1", name: "zoom", arguments: { x: 1 } },
          {
            type: "toolCall",
            id: "call_2",
            name: "zoom",
            arguments: {},
            rawArguments: '{"x":',
            argumentsError: "truncated",
          },
        ]),
        {
          role: "toolResult",
          toolCallId: "call_1",
          toolName: "zoom",
          content: [
            { type: "text", text: "zoomed" },
            { type: "image", data: "BBBB", mimeType: "image/jpeg" },
          ],
          isError: false,
        },
        {
          role: "toolResult",
          toolCallId: "call_2",
          toolName: "zoom",
          content: [{ type: "text", text: "bad arguments" }],
          isError: true,
        },
      ],
    };
    expect(toOpenAIMessages(context, gpt)).toEqual([
      { role: "system", content: "be brief" },
      {
        role: "user",
        content: [
          { type: "text", text: "what is in this picture?" },
          { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } },
        ],
      },
      {
        role: "assistant",
        content: "checking",
        tool_calls: [
          { id: "call_1", type: "function", function: { name: "zoom", arguments: '{"x":1}' } },
          { id: "call_2", type: "function", function: { name: "zoom", arguments: "{}" } },
        ],
      },
      { role: "tool", tool_call_id: "call_1", content: "zoomed\n[image attached below]" },
      { role: "tool", tool_call_id: "call_2", content: "Error: bad arguments" },
      {
        role: "user",
        content: [
          { type: "text", text: "Images returned by the tools above:" },
          { type: "image_url", image_url: { url: "data:image/jpeg;base64,BBBB" } },
        ],
      },
    ]);
  });

  it("replaces images with a note for a text-only model and drops empty assistant turns", () => {
    const context: Context = {
      messages: [
        { role: "user", content: [{ type: "image", data: "AAAA", mimeType: "image/png" }] },
        { ...assistant([]), stopReason: "error", errorKind: "network" },
        { role: "user", content: "again" },
      ],
    };
    expect(toOpenAIMessages(context, qwen)).toEqual([
      { role: "user", content: [{ type: "text", text: "[image omitted: this model takes text only]" }] },
      { role: "user", content: "again" },
    ]);
  });
});

describe("buildOpenAIRequest", () => {
  const context: Context = {
    messages: [{ role: "user", content: "hi" }],
    tools: [{ name: "add", description: "adds", parameters: { type: "object", properties: {} } }],
  };

  it("streams with usage, tools, the OpenAI cap field and the cache key on api.openai.com", () => {
    const body = buildOpenAIRequest(
      gpt,
      context,
      { maxTokens: 100, cacheKey: "session-1", stop: ["END"] },
      resolveCompat(gpt, gpt.baseUrl, undefined),
    );
    expect(body).toMatchObject({
      model: "gpt-4.1-mini",
      stream: true,
      stream_options: { include_usage: true },
      max_completion_tokens: 100,
      prompt_cache_key: "session-1",
      stop: ["END"],
      tools: [
        {
          type: "function",
          function: { name: "add", description: "adds", parameters: { type: "object", properties: {} } },
        },
      ],
    });
    expect(body).not.toHaveProperty("reasoning_effort");
  });

  it("sends reasoning_effort to OpenAI reasoning models, and leaves 'off' unsent when the wire cannot say it", () => {
    const compat = resolveCompat(o4, o4.baseUrl, undefined);
    expect(buildOpenAIRequest(o4, context, { reasoning: "high" }, compat).reasoning_effort).toBe("high");
    expect(buildOpenAIRequest(o4, context, { reasoning: "off" }, compat)).not.toHaveProperty("reasoning_effort");
    const offable = { ...o4, thinkingOff: true };
    expect(buildOpenAIRequest(offable, context, { reasoning: "off" }, compat).reasoning_effort).toBe("none");
  });

  it("switches Qwen thinking off through chat_template_kwargs on a gateway, with max_tokens", () => {
    const compat = resolveCompat(qwen, qwen.baseUrl, undefined);
    const off = buildOpenAIRequest(qwen, context, { reasoning: "off" }, compat);
    expect(off.chat_template_kwargs).toEqual({ enable_thinking: false });
    expect(off.max_tokens).toBe(8192);
    expect(off).not.toHaveProperty("max_completion_tokens");
    expect(buildOpenAIRequest(qwen, context, { reasoning: "low" }, compat).chat_template_kwargs).toEqual({
      enable_thinking: true,
    });
    expect(
      buildOpenAIRequest({ ...qwen, thinkingOff: false }, context, { reasoning: "off" }, compat),
    ).not.toHaveProperty("chat_template_kwargs");
  });

  it("takes the compat flavour per model from the brain option", () => {
    const compat = resolveCompat(qwen, qwen.baseUrl, (m) =>
      m.provider === "vllm" ? { thinkingSwitch: "none", maxTokensField: "max_completion_tokens" } : undefined,
    );
    const body = buildOpenAIRequest(qwen, context, { reasoning: "off" }, compat);
    expect(body).not.toHaveProperty("chat_template_kwargs");
    expect(body.max_completion_tokens).toBe(8192);
  });

  it("sends no reasoning fields to a model that does not reason", () => {
    const body = buildOpenAIRequest(gpt, context, { reasoning: "high" }, resolveCompat(gpt, gpt.baseUrl, undefined));
    expect(body).not.toHaveProperty("reasoning_effort");
    expect(body).not.toHaveProperty("chat_template_kwargs");
  });
});

describe("message provenance", () => {
  it("is never sent: the wire (and its prompt cache) is the same with or without it", () => {
    const plain: Context = {
      messages: [
        { role: "user", content: "fix the tests" },
        { role: "user", content: "be brief" },
      ],
    };
    const attributed: Context = {
      messages: [
        { role: "user", content: "fix the tests", provenance: "user" },
        { role: "user", content: "be brief", provenance: [{ source: "engine", chars: 8 }] },
      ],
    };
    expect(JSON.stringify(toOpenAIMessages(attributed, gpt))).toBe(JSON.stringify(toOpenAIMessages(plain, gpt)));
    expect(JSON.stringify(toOpenAIMessages(attributed, gpt))).not.toContain("provenance");
  });
});
