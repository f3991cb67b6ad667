import { describe, expect, it } from "vitest";
import { UsageError } from "./args";
import { endpointModel, resolveEndpoint } from "./endpoint";

const args = (extra: Record<string, unknown> = {}) => ({ prices: {}, ...extra });

describe("resolveEndpoint", () => {
  it("takes flags over the environment, and the student's model for the teacher by default", () => {
    const { config, apiKey } = resolveEndpoint(args({ baseUrl: "http://127.0.0.1:9/v1", apiKey: "flag", model: "m" }), {
      OPENAI_API_KEY: "env",
      OPENAI_MODEL: "other",
    });
    expect(apiKey).toBe("flag");
    expect(config).toEqual({
      provider: "openai",
      baseUrl: "http://127.0.0.1:9/v1",
      model: "m",
      teacherModel: "m",
      prices: {},
    });
  });

  it("reads OPENAI_* / ANTHROPIC_* and the X_AGENT_* model variables", () => {
    const openai = resolveEndpoint(args(), {
      OPENAI_API_KEY: "k",
      OPENAI_MODEL: "gpt",
      X_AGENT_TEACHER_MODEL: "big",
      X_AGENT_CLASSIFIER_MODEL: "tiny",
    });
    expect(openai.config).toMatchObject({
      provider: "openai",
      baseUrl: "https://api.openai.com/v1",
      model: "gpt",
      teacherModel: "big",
      classifierModel: "tiny",
    });
    const anthropic = resolveEndpoint(args(), { ANTHROPIC_API_KEY: "k", ANTHROPIC_MODEL: "claude" });
    expect(anthropic.config).toMatchObject({
      provider: "anthropic",
      baseUrl: "https://api.anthropic.com",
      model: "claude",
    });
    expect(resolveEndpoint(args(), { OPENAI_API_KEY: "k", X_AGENT_MODEL: "x", OPENAI_MODEL: "y" }).config.model).toBe(
      "x",
    );
  });

  it("asks for a model, and for a key on the providers' own endpoints but not on a local gateway", () => {
    expect(() => resolveEndpoint(args(), { OPENAI_API_KEY: "k" })).toThrow(/no model/);
    expect(() => resolveEndpoint(args({ model: "m" }), {})).toThrow(UsageError);
    expect(() => resolveEndpoint(args({ model: "m" }), {})).toThrow(/no API key/);
    expect(resolveEndpoint(args({ model: "m", baseUrl: "http://127.0.0.1:11434/v1" }), {}).apiKey).toBeUndefined();
  });

  it("prices a model from --price, and leaves others at zero", () => {
    const { config } = resolveEndpoint(
      args({ model: "m", apiKey: "k", prices: { m: { input: 0.4, output: 1.6 } } }),
      {},
    );
    expect(endpointModel(config, "m").cost).toMatchObject({ input: 0.4, output: 1.6 });
    expect(endpointModel(config, "other").cost).toMatchObject({ input: 0, output: 0 });
    expect(endpointModel(config, "m").api).toBe("openai-completions");
  });

  it("--provider openai-responses sends OpenAI calls through the Responses API, with the OPENAI_* variables", () => {
    const { config, apiKey } = resolveEndpoint(args({ provider: "openai-responses" }), {
      OPENAI_API_KEY: "k",
      OPENAI_MODEL: "gpt-5-mini",
    });
    expect(config).toMatchObject({
      provider: "openai-responses",
      baseUrl: "https://api.openai.com/v1",
      model: "gpt-5-mini",
    });
    expect(apiKey).toBe("k");
    expect(endpointModel(config, "gpt-5-mini").api).toBe("openai-responses");
  });
});
