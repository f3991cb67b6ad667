import { customApi, defineModel, type Model, type ModelInput } from "@x/llm-types";

/** Any field of a model; `api` as a plain string, since a faux brain may answer for a made-up wire (`"faux-cls"`). */
export type FauxModelOverrides = Omit<Partial<ModelInput>, "api"> & { api?: string };

/**
 * A valid faux Model: `api: "faux"`, provider `faux`, baseUrl `faux://local`, with real-looking
 * prices (so cost arithmetic is exercised) and limits. Override any field, e.g. `{ api: "openai-completions" }`
 * to let a faux brain stand in for another wire.
 */
export function fauxModel(overrides: FauxModelOverrides = {}): Model {
  const { api, ...rest } = overrides;
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
    ...rest,
    // A faux brain answers for any wire name it is given, so any name is a wire here.
    ...(api === undefined ? {} : { api: customApi(api) }),
  });
}
