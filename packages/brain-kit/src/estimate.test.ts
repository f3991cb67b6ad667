import { emptyUsage, type Context, type Message, type ToolSpec } from "@x/llm-types";
import { describe, expect, it } from "vitest";
import { contextSize, estimateContextTokens, tokensOfSize } from "./estimate";

const tool: ToolSpec = {
  name: "read",
  description: "reads a file",
  parameters: { type: "object", properties: { path: { type: "string" } } },
};
const messages: Message[] = [
  { role: "user", content: "a question of some length" },
  { role: "user", content: [{ type: "image", data: "AAAA", mimeType: "image/png" }] },
  {
    role: "assistant",
    content: [
      { type: "thinking", thinking: "hmm" },
      { type: "toolCall", id: "c1", name: "read", arguments: { path: "a.txt" } },
    ],
    api: "a",
    provider: "p",
    model: "m",
    usage: emptyUsage(),
    stopReason: "toolUse",
    timestamp: 1,
  },
];

describe("context size", () => {
  it("the sizes of a context's parts add up to the size of the whole, and give the same estimate", () => {
    const whole: Context = { systemPrompt: "be brief", messages, tools: [tool] };
    const parts = [
      contextSize({ messages: messages.slice(0, 1), systemPrompt: "be brief" }),
      contextSize({ messages: messages.slice(1) }),
      contextSize({ messages: [], tools: [tool] }),
    ];
    const sum = parts.reduce((a, b) => ({ chars: a.chars + b.chars, images: a.images + b.images }));
    expect(sum).toEqual(contextSize(whole));
    expect(tokensOfSize(sum)).toBe(estimateContextTokens(whole));
    expect(contextSize(whole).images).toBe(1);
    const chars = "be brief".length + 25 + 3 + "read".length + JSON.stringify({ path: "a.txt" }).length;
    expect(contextSize(whole).chars).toBe(chars + 4 + 12 + JSON.stringify(tool.parameters).length);
    expect(estimateContextTokens(whole)).toBe(Math.ceil(contextSize(whole).chars / 4) + 1000);
  });
});
