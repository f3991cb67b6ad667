import { defineModel } from "@x/llm-types";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createAnthropicBrain } from "./anthropic-brain";

const sonnet = defineModel({
  id: "claude-sonnet-4-5",
  api: "anthropic-messages",
  provider: "anthropic",
  baseUrl: "https://api.anthropic.com",
  contextWindow: 1,
  maxTokens: 1,
});

afterEach(() => vi.unstubAllEnvs());

describe("judgeRoute", () => {
  it("without a key every call would fail auth: the route is broken before any call", () => {
    vi.stubEnv("ANTHROPIC_API_KEY", "");
    expect(createAnthropicBrain().judgeRoute?.(sonnet)).toEqual({ broken: true, cause: "missing_api_key" });
  });

  it("with a key it has no objection", () => {
    expect(createAnthropicBrain({ apiKey: "sk-ant-test" }).judgeRoute?.(sonnet)).toEqual({ broken: false });
  });
});
