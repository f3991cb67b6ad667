import { defineModel, type Api, type Model, type ModelInput } from "@x/llm-types";
import { ANTHROPIC_MODELS, DEEPSEEK_MODELS, GOOGLE_MODELS, OPENAI_MODELS } from "./models-dev";
import type { PresetData } from "./preset-data";

/**
 * What a preset may be told to change: any field of a model but its id (a gateway's baseUrl, a negotiated
 * price). A field given as `undefined` keeps the preset's value, so `{ baseUrl: process.env.OPENAI_BASE_URL }`
 * points at a gateway only when one is set.
 */
export type PresetOverrides = { [K in Exclude<keyof ModelInput, "id">]?: ModelInput[K] | undefined };

export type OpenAIModelId = keyof typeof OPENAI_MODELS;
export type AnthropicModelId = keyof typeof ANTHROPIC_MODELS;
export type GoogleModelId = keyof typeof GOOGLE_MODELS;
export type DeepSeekModelId = keyof typeof DEEPSEEK_MODELS;

/** One provider's wire, endpoint, and whether a reasoning model of it can be told not to think. */
interface Endpoint {
  provider: string;
  api: Api;
  baseUrl: string;
  thinkingOff: (id: string) => boolean;
}

function preset(endpoint: Endpoint, id: string, data: PresetData, overrides: PresetOverrides): Model {
  return defineModel({
    id,
    name: data.name,
    provider: endpoint.provider,
    api: endpoint.api,
    baseUrl: endpoint.baseUrl,
    reasoning: data.reasoning,
    thinkingOff: !data.reasoning || endpoint.thinkingOff(id),
    input: [...data.input],
    cost: { ...data.cost },
    contextWindow: data.contextWindow,
    maxTokens: data.maxTokens,
    ...Object.fromEntries(Object.entries(overrides).filter(([, value]) => value !== undefined)),
  });
}

// OpenAI's reasoning models take an effort level but have no "off"; DeepSeek's reasoner always reasons.
const OPENAI: Endpoint = {
  provider: "openai",
  api: "openai-completions",
  baseUrl: "https://api.openai.com/v1",
  thinkingOff: () => false,
};
// Anthropic thinks only when the request asks for it.
const ANTHROPIC: Endpoint = {
  provider: "anthropic",
  api: "anthropic-messages",
  baseUrl: "https://api.anthropic.com",
  thinkingOff: () => true,
};
// Gemini's OpenAI-compatible endpoint; Flash takes a zero thinking budget, Pro does not.
const GOOGLE: Endpoint = {
  provider: "google",
  api: "openai-completions",
  baseUrl: "https://generativelanguage.googleapis.com/v1beta/openai",
  thinkingOff: (id) => id.includes("flash"),
};
const DEEPSEEK: Endpoint = {
  provider: "deepseek",
  api: "openai-completions",
  baseUrl: "https://api.deepseek.com",
  thinkingOff: () => false,
};

/** An OpenAI model on Chat Completions (`api: "openai-completions"`); `overrides` change any field but the id. */
export function openai(id: OpenAIModelId, overrides: PresetOverrides = {}): Model {
  return preset(OPENAI, id, OPENAI_MODELS[id], overrides);
}

/** An Anthropic model on the Messages API (`api: "anthropic-messages"`). */
export function anthropic(id: AnthropicModelId, overrides: PresetOverrides = {}): Model {
  return preset(ANTHROPIC, id, ANTHROPIC_MODELS[id], overrides);
}

/** A Gemini model on Google's OpenAI-compatible endpoint (`api: "openai-completions"`). */
export function google(id: GoogleModelId, overrides: PresetOverrides = {}): Model {
  return preset(GOOGLE, id, GOOGLE_MODELS[id], overrides);
}

/** A DeepSeek model on its OpenAI-compatible API (`api: "openai-completions"`). */
export function deepseek(id: DeepSeekModelId, overrides: PresetOverrides = {}): Model {
  return preset(DEEPSEEK, id, DEEPSEEK_MODELS[id], overrides);
}
