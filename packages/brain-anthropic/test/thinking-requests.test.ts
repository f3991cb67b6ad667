import type { Anthropic } from "@anthropic-ai/sdk";
import { join } from "node:path";
import {
  readRecordedStream,
  recordedPayloads,
  recordedReply,
  startScriptedServer,
  type ScriptedServer,
} from "@x/brain-kit/testing";
import { defineModel, emptyUsage, type AssistantMessage, type Context, type Model } from "@x/llm-types";
import { afterEach, describe, expect, it } from "vitest";
import { createAnthropicBrain } from "../src/index";
import { buildAnthropicRequest } from "../src/request";
import { defaultThinkingStyle } from "../src/thinking";
import { anthropicRuleViolations } from "./wire-rules";

const RECORDINGS = join(import.meta.dirname, "../recordings");
let server: ScriptedServer | undefined;
afterEach(() => server?.close());

function claude(id: string, extra: Partial<Model> = {}): Model {
  return defineModel({
    id,
    api: "anthropic-messages",
    provider: "anthropic",
    baseUrl: "https://api.anthropic.com",
    reasoning: true,
    contextWindow: 200_000,
    maxTokens: 32_000,
    ...extra,
  });
}

/** The xAI turn a fallback chain hands to Claude: grok-3-mini's recorded reasoning and tool call. */
function recordedForeignTurn(): AssistantMessage {
  const recording = readRecordedStream(
    join(import.meta.dirname, "../../brain-openai/recordings/chat/xai/grok-3-mini-tool-call-reasoning.jsonl"),
  );
  let reasoning = "";
  let id = "";
  let name = "";
  let args = "";
  for (const { payload } of recordedPayloads(recording)) {
    const delta = (payload as { choices?: Array<{ delta?: Record<string, unknown> }> }).choices?.[0]?.delta ?? {};
    if (typeof delta.reasoning_content === "string") reasoning += delta.reasoning_content;
    for (const call of (delta.tool_calls as Array<{ id?: string; function?: { name?: string; arguments?: string } }>) ??
      []) {
      id ||= call.id ?? "";
      name ||= call.function?.name ?? "";
      args += call.function?.arguments ?? "";
    }
  }
  return {
    role: "assistant",
    content: [
      { type: "thinking", thinking: reasoning },
      { type: "toolCall", id, name, arguments: JSON.parse(args) as Record<string, unknown> },
    ],
    api: "openai-completions",
    provider: "xai",
    model: "grok-3-mini",
    usage: emptyUsage(),
    stopReason: "toolUse",
    timestamp: 0,
  };
}

function fallbackContext(): Context {
  const foreign = recordedForeignTurn();
  const call = foreign.content[1] as { id: string; name: string };
  return {
    tools: [{ name: call.name, description: "weather", parameters: { type: "object", properties: {} } }],
    messages: [
      { role: "user", content: "What is the weather in San Francisco?" },
      foreign,
      {
        role: "toolResult",
        toolCallId: call.id,
        toolName: call.name,
        content: [{ type: "text", text: "18°C" }],
        isError: false,
        timestamp: 0,
      },
    ],
  };
}

describe("a fallback chain into Claude with thinking on", () => {
  it(
    "continuing another API's tool call sends a request " + "the Messages API accepts (no thinking for that call)",
    async () => {
      // A loopback server that refuses what the API refuses, with the API's own words, else replays a recorded answer.
      const answer = readRecordedStream(join(RECORDINGS, "text.jsonl"));
      server = await startScriptedServer((request) => {
        const violations = anthropicRuleViolations(request.body as Anthropic.MessageCreateParamsStreaming);
        if (violations.length)
          return {
            kind: "json",
            status: 400,
            body: { type: "error", error: { type: "invalid_request_error", message: violations.join("; ") } },
          };
        return recordedReply(answer);
      });
      const model = claude("claude-opus-4-7", { baseUrl: server.origin });
      const turn = await createAnthropicBrain({ apiKey: "k" })
        .stream(model, fallbackContext(), { reasoning: "high" })
        .result();
      expect(turn.errorMessage).toBeUndefined();
      expect(turn.stopReason).toBe("stop");
      const sent = server.requests[0]!.body as Anthropic.MessageCreateParamsStreaming;
      expect(sent).not.toHaveProperty("thinking");
      expect(sent.messages[1]!.content).toEqual([expect.objectContaining({ type: "tool_use", name: "weather" })]);
    },
  );

  it("the rule the API enforces is what the old request broke", () => {
    const body = buildAnthropicRequest(claude("claude-sonnet-4-5"), fallbackContext(), { reasoning: "high" });
    expect(anthropicRuleViolations({ ...body, thinking: { type: "enabled", budget_tokens: 4096 } })).toEqual([
      expect.stringContaining("a final `assistant` message must start with a thinking block"),
    ]);
  });

  it("the next user turn thinks again", () => {
    const context = fallbackContext();
    context.messages.push(
      {
        role: "assistant",
        content: [{ type: "text", text: "18°C." }],
        api: "anthropic-messages",
        provider: "anthropic",
        model: "m",
        usage: emptyUsage(),
        stopReason: "stop",
        timestamp: 0,
      },
      { role: "user", content: "And tomorrow?" },
    );
    const body = buildAnthropicRequest(claude("claude-sonnet-4-5"), context, { reasoning: "high" });
    expect(body.thinking).toMatchObject({ type: "enabled" });
    expect(anthropicRuleViolations(body)).toEqual([]);
  });
});

describe("thinking style per model, with room left for the answer", () => {
  it.each([
    ["claude-opus-4-7", "adaptive"],
    ["claude-opus-4-8-20260101", "adaptive"],
    ["claude-opus-5", "adaptive"],
    ["claude-sonnet-4-6", "adaptive"],
    ["claude-fable-5", "adaptive"],
    ["claude-opus-4-1-20250805", "budget"],
    ["claude-sonnet-4-5-20250929", "budget"],
    ["claude-opus-4-20250514", "budget"],
    ["claude-haiku-4-5", "budget"],
    ["claude-3-7-sonnet-20250219", "budget"],
    ["my-proxy-model", "budget"],
  ] as const)("%s defaults to %s", (id, style) => {
    expect(defaultThinkingStyle(id)).toBe(style);
  });

  it("the newest Opus gets adaptive thinking with an effort, never a budget the API refuses", () => {
    const body = buildAnthropicRequest(
      claude("claude-opus-4-7"),
      { messages: [{ role: "user", content: "hi" }] },
      { reasoning: "medium" },
    );
    expect(body).toMatchObject({ thinking: { type: "adaptive" }, output_config: { effort: "medium" } });
    expect(body.thinking).not.toHaveProperty("budget_tokens");
  });

  it("the catalog entry's thinkingStyle wins over the id", () => {
    const body = buildAnthropicRequest(
      claude("claude-opus-4-7", { thinkingStyle: "budget" }),
      { messages: [{ role: "user", content: "hi" }] },
      { reasoning: "low" },
    );
    expect(body.thinking).toEqual({ type: "enabled", budget_tokens: 4096 });
  });

  it.each([2048, 4096, 8192, 16_000, 64_000])(
    "a budget under max_tokens %i leaves at least a quarter for the answer",
    (maxTokens) => {
      const body = buildAnthropicRequest(
        claude("claude-sonnet-4-5"),
        { messages: [{ role: "user", content: "hi" }] },
        { reasoning: "high", maxTokens },
      );
      const budget = body.thinking?.type === "enabled" ? body.thinking.budget_tokens : 0;
      expect(budget).toBeGreaterThanOrEqual(1024);
      expect(maxTokens - budget).toBeGreaterThanOrEqual(Math.max(1024, maxTokens / 4));
      expect(anthropicRuleViolations(body)).toEqual([]);
    },
  );
});
