import { defineModel, type Model, type ModelInput } from "@x/llm-types";

/**
 * A valid faux Model: `api: "faux"`, provider `faux`, baseUrl `faux://local`, with real-looking
 * prices (so cost arithmetic is exercised) and limits. Override any field, e.g. `{ api: "openai-completions" }`
 * to let a faux brain stand in for another wire.
 */
export function fauxModel(overrides: Partial<ModelInput> = {}): Model {
  return defineModel({
    id: "faux-1",
    name: "Faux 1",
    api: "faux",
    provider: "faux",
    baseUrl: "faux://local",
    reasoning: true,
    input: ["text", "image"],
    cost: { input: 1, output: 4, cacheRead: 0.1, cacheWrite: 1.25 },
    contextWindow: 128_000,
    maxTokens: 8192,
    ...overrides,
  });
}
