import { defineModel, type Brain } from "@x/llm-types";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createOpenAIBrain, type OpenAIBrainOptions } from "./openai-brain";
import { createOpenAIResponsesBrain } from "./responses-brain";

const at = (baseUrl: string) =>
  defineModel({
    id: "gpt-4.1-mini",
    api: "openai-completions",
    provider: "openai",
    baseUrl,
    contextWindow: 1,
    maxTokens: 1,
  });

afterEach(() => vi.unstubAllEnvs());

const brains: [string, (options?: OpenAIBrainOptions) => Brain][] = [
  ["chat completions", createOpenAIBrain],
  ["responses", createOpenAIResponsesBrain],
];

describe.each(brains)("judgeRoute (%s brain)", (_name, createBrain) => {
  it("a keyless route to OpenAI's own API is broken before any call", () => {
    vi.stubEnv("OPENAI_API_KEY", "");
    const brain = createBrain();
    expect(brain.judgeRoute?.(at("https://api.openai.com/v1"))).toEqual({ broken: true, cause: "missing_api_key" });
    expect(brain.judgeRoute?.(at("faux://not-a-url"))).toEqual({ broken: true, cause: "missing_api_key" });
  });

  it("has no opinion on a gateway that may need no key, or when there is a key", () => {
    vi.stubEnv("OPENAI_API_KEY", "");
    expect(createBrain().judgeRoute?.(at("http://127.0.0.1:11434/v1"))).toEqual({ broken: false });
    expect(createBrain({ apiKey: "sk-test" }).judgeRoute?.(at("https://api.openai.com/v1"))).toEqual({
      broken: false,
    });
  });
});
