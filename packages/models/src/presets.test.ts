import { sameRoute, usageFor } from "@x/llm-types";
import { describe, expect, it } from "vitest";
import { anthropic, deepseek, google, openai } from "./presets";

describe("model presets", () => {
  it("an OpenAI preset is a whole Model on Chat Completions, priced per million tokens", () => {
    const model = openai("gpt-4.1-mini");
    expect(model).toMatchObject({
      id: "gpt-4.1-mini",
      provider: "openai",
      api: "openai-completions",
      baseUrl: "https://api.openai.com/v1",
      reasoning: false,
      input: ["text", "image"],
      contextWindow: 1_047_576,
      maxTokens: 32_768,
      cost: { input: 0.4, output: 1.6, cacheRead: 0.1, cacheWrite: 0 },
    });
    // 1M input + 1M output tokens cost $0.40 + $1.60, in integer micro-dollars.
    expect(usageFor(model, { input: 1_000_000, output: 1_000_000 }).cost.total).toBe(2_000_000);
  });

  it("marks reasoning models, and which wires can switch their thinking off", () => {
    expect(openai("o4-mini")).toMatchObject({ reasoning: true, thinkingOff: false });
    expect(openai("gpt-4o")).toMatchObject({ reasoning: false, thinkingOff: true });
    expect(anthropic("claude-sonnet-4-20250514")).toMatchObject({
      api: "anthropic-messages",
      baseUrl: "https://api.anthropic.com",
      reasoning: true,
      thinkingOff: true,
    });
    expect(google("gemini-2.5-flash")).toMatchObject({ reasoning: true, thinkingOff: true, api: "openai-completions" });
    expect(google("gemini-2.5-pro")).toMatchObject({ reasoning: true, thinkingOff: false });
    expect(deepseek("deepseek-reasoner")).toMatchObject({ reasoning: true, thinkingOff: false });
  });

  it("overrides any field but the id; an undefined override keeps the preset's value", () => {
    const gateway = openai("gpt-4.1-mini", { baseUrl: "http://127.0.0.1:4000/v1", provider: "litellm" });
    expect(gateway).toMatchObject({ id: "gpt-4.1-mini", baseUrl: "http://127.0.0.1:4000/v1", provider: "litellm" });
    expect(sameRoute(gateway, openai("gpt-4.1-mini"))).toBe(false);
    expect(openai("gpt-4.1-mini", { baseUrl: undefined }).baseUrl).toBe("https://api.openai.com/v1");
    expect(openai("gpt-4o", { cost: { input: 1, output: 2 } }).cost).toEqual({
      input: 1,
      output: 2,
      cacheRead: 0,
      cacheWrite: 0,
    });
  });

  it("refuses an override that is not a valid model field, naming it", () => {
    expect(() => openai("gpt-4o", { contextWindow: -1 })).toThrow(/contextWindow/);
  });

  it("refuses an id it does not know at compile time", () => {
    // @ts-expect-error "gpt-4.1-mimi" is not a preset
    expect(() => openai("gpt-4.1-mimi")).toThrow();
  });
});
