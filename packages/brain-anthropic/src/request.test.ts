import { defineModel, emptyUsage, type AssistantMessage, type Context } from "@x/llm-types";
import { describe, expect, it } from "vitest";
import { buildAnthropicRequest, toAnthropicMessages } from "./request";
import { thinkingFor } from "./thinking";

const sonnet = defineModel({
  id: "claude-sonnet-4-6",
  api: "anthropic-messages",
  provider: "anthropic",
  baseUrl: "https://api.anthropic.com",
  reasoning: true,
  input: ["text", "image"],
  contextWindow: 200_000,
  maxTokens: 64_000,
});

function assistant(content: AssistantMessage["content"], api = "anthropic-messages"): AssistantMessage {
  return {
    role: "assistant",
    content,
    api,
    provider: "anthropic",
    model: sonnet.id,
    usage: emptyUsage(),
    stopReason: "toolUse",
    timestamp: 0,
  };
}

describe("toAnthropicMessages", () => {
  it("sends thinking back with its signature, merges tool results, maps images", () => {
    const context: Context = {
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "look" },
            { type: "image", data: "AAAA", mimeType: "image/png" },
          ],
        },
        assistant([
          { type: "thinking", thinking: "hmm", signature: "sig-1" },
          { type: "thinking", thinking: "opaque", redacted: true },
          { type: "thinking", thinking: "unsigned" },
          { type: "text", text: "" },
          { type: "toolCall", id: "toolu_1", name: "zoom", arguments: { x: 1 } },
          { type: "toolCall", id: "toolu_2", name: "zoom", arguments: { x: 2 } },
        ]),
        {
          role: "toolResult",
          toolCallId: "toolu_1",
          toolName: "zoom",
          content: [{ type: "text", text: "ok" }],
          isError: false,
        },
        {
          role: "toolResult",
          toolCallId: "toolu_2",
          toolName: "zoom",
          content: [{ type: "image", data: "BBBB", mimeType: "image/jpeg" }],
          isError: true,
        },
      ],
    };
    expect(toAnthropicMessages(context, sonnet)).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "look" },
          { type: "image", source: { type: "base64", media_type: "image/png", data: "AAAA" } },
        ],
      },
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "hmm", signature: "sig-1" },
          { type: "redacted_thinking", data: "opaque" },
          { type: "tool_use", id: "toolu_1", name: "zoom", input: { x: 1 } },
          { type: "tool_use", id: "toolu_2", name: "zoom", input: { x: 2 } },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "toolu_1", content: [{ type: "text", text: "ok" }], is_error: false },
          {
            type: "tool_result",
            tool_use_id: "toolu_2",
            content: [{ type: "image", source: { type: "base64", media_type: "image/jpeg", data: "BBBB" } }],
            is_error: true,
          },
        ],
      },
    ]);
  });

  it("leaves out thinking that came from another API (its signature cannot verify)", () => {
    const context: Context = {
      messages: [
        { role: "user", content: "hi" },
        assistant(
          [
            { type: "thinking", thinking: "x", signature: "s" },
            { type: "text", text: "hello" },
          ],
          "openai-completions",
        ),
      ],
    };
    expect(toAnthropicMessages(context, sonnet)[1]).toEqual({
      role: "assistant",
      content: [{ type: "text", text: "hello" }],
    });
  });
});

describe("buildAnthropicRequest", () => {
  const tools = [
    { name: "a", description: "A", parameters: { type: "object" } },
    { name: "b", description: "B", parameters: { type: "object" } },
  ];

  it("puts cache breakpoints on the system block, the last tool and the last two user turns", () => {
    const context: Context = {
      systemPrompt: "sys",
      tools,
      messages: [
        { role: "user", content: "one" },
        assistant([{ type: "toolCall", id: "t1", name: "a", arguments: {} }]),
        {
          role: "toolResult",
          toolCallId: "t1",
          toolName: "a",
          content: [{ type: "text", text: "r1" }],
          isError: false,
        },
        assistant([{ type: "toolCall", id: "t2", name: "b", arguments: {} }]),
        {
          role: "toolResult",
          toolCallId: "t2",
          toolName: "b",
          content: [{ type: "text", text: "r2" }],
          isError: false,
        },
      ],
    };
    const body = buildAnthropicRequest(sonnet, context, {});
    const json = JSON.stringify(body);
    expect(json.split('"cache_control"').length - 1).toBe(4);
    expect(body.system).toEqual([{ type: "text", text: "sys", cache_control: { type: "ephemeral" } }]);
    expect(body.tools?.[0]).not.toHaveProperty("cache_control");
    expect(body.tools?.[1]).toMatchObject({ name: "b", cache_control: { type: "ephemeral" } });
    expect(body.messages[0]!.content).toEqual([{ type: "text", text: "one" }]);
    expect(body.messages[2]!.content).toEqual([
      {
        type: "tool_result",
        tool_use_id: "t1",
        content: [{ type: "text", text: "r1" }],
        is_error: false,
        cache_control: { type: "ephemeral" },
      },
    ]);
    expect((body.messages[4]!.content as unknown as Array<Record<string, unknown>>)[0]).toHaveProperty(
      "cache_control",
      { type: "ephemeral" },
    );
  });

  it(
    "sizes the thinking budget from the level, leaving a quarter of " +
      "max_tokens for the answer; off or unset sends none",
    () => {
      expect(thinkingFor(sonnet, "medium", 64_000)).toEqual({ type: "enabled", budget_tokens: 10_000 });
      expect(thinkingFor(sonnet, "high", 8000)).toEqual({ type: "enabled", budget_tokens: 6000 });
      expect(thinkingFor(sonnet, "low", 1000)).toBeUndefined();
      expect(thinkingFor(sonnet, "off", 64_000)).toBeUndefined();
      expect(thinkingFor(sonnet, undefined, 64_000)).toBeUndefined();
      expect(thinkingFor({ ...sonnet, reasoning: false }, "high", 64_000)).toBeUndefined();
      const body = buildAnthropicRequest(
        sonnet,
        { messages: [{ role: "user", content: "hi" }] },
        { reasoning: "off", maxTokens: 500, stop: ["X"] },
      );
      expect(buildAnthropicRequest(sonnet, { messages: [] }, { reasoning: "minimal" }, "adaptive")).toMatchObject({
        thinking: { type: "adaptive" },
        output_config: { effort: "low" },
      });
      expect(buildAnthropicRequest(sonnet, { messages: [] }, { reasoning: "off" }, "adaptive")).not.toHaveProperty(
        "thinking",
      );
      expect(body).not.toHaveProperty("thinking");
      expect(body).toMatchObject({ model: "claude-sonnet-4-6", max_tokens: 500, stream: true, stop_sequences: ["X"] });
    },
  );
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
    expect(JSON.stringify(toAnthropicMessages(attributed, sonnet))).toBe(
      JSON.stringify(toAnthropicMessages(plain, sonnet)),
    );
    expect(JSON.stringify(toAnthropicMessages(attributed, sonnet))).not.toContain("provenance");
  });
});

describe("cache points", () => {
  it(
    "a string user turn is cut into blocks at its cache points, the block " +
      "ending at the last one marked; the text is unchanged",
    () => {
      const text = "opening\nline 1\nline 2 (judged)\nquestion?";
      const points = [text.indexOf("line 2"), text.indexOf("question")];
      const body = buildAnthropicRequest(
        sonnet,
        { systemPrompt: "sys", messages: [{ role: "user", content: text, cachePoints: points }] },
        {},
      );
      const blocks = body.messages[0]!.content as Array<{ text: string; cache_control?: unknown }>;
      expect(blocks.map((b) => b.text)).toEqual(["opening\nline 1\n", "line 2 (judged)\n", "question?"]);
      expect(blocks.map((b) => b.cache_control)).toEqual([undefined, { type: "ephemeral" }, undefined]);
      expect(blocks.map((b) => b.text).join("")).toBe(text);
      // Points outside the text, repeated or out of order are ignored; none left: one block as before.
      const odd = buildAnthropicRequest(
        sonnet,
        { messages: [{ role: "user", content: "abc", cachePoints: [0, 3, 9] }] },
        {},
      );
      expect(odd.messages[0]!.content).toEqual([{ type: "text", text: "abc", cache_control: { type: "ephemeral" } }]);
    },
  );

  it(
    "a request that repeats the previous one's text and points up to its " +
      "mark repeats its blocks there: the cached prefix is found",
    () => {
      const blocksOf = (lines: string[]) => {
        const points = lines.map((_, i) => lines.slice(0, i + 1).join("").length);
        const { messages } = buildAnthropicRequest(
          sonnet,
          { messages: [{ role: "user", content: `${lines.join("")}question`, cachePoints: points }] },
          {},
        );
        return messages[0]!.content as Array<{ text: string; cache_control?: unknown }>;
      };
      const before = blocksOf(["opening\n", "A\n", "B\n"]);
      const after = blocksOf(["opening\n", "A\n", "B\n", "C\n"]);
      const marked = before.findIndex((block) => block.cache_control);
      expect(marked).toBe(2);
      const strip = (blocks: typeof before) => blocks.map((block) => block.text);
      expect(strip(after).slice(0, marked + 1)).toEqual(strip(before).slice(0, marked + 1));
      expect(after.findIndex((block) => block.cache_control)).toBe(3);
    },
  );
});
