import type { Model } from "@x/llm-types";

/**
 * How an OpenAI-compatible endpoint spells the knobs the Chat Completions standard leaves open.
 * Defaults are picked from the base URL: OpenAI itself gets the OpenAI spellings, any other
 * endpoint (vLLM, Ollama, OpenRouter, LiteLLM) the common gateway ones.
 */
export interface OpenAICompat {
  /**
   * How reasoning is controlled, for models with `reasoning: true`:
   * - `reasoning_effort`: OpenAI's `reasoning_effort` (`off` is sent as `none` when the model's
   *   `thinkingOff` says the wire can spell it, otherwise left at the model's default);
   * - `enable_thinking`: the Qwen-style chat-template switch `chat_template_kwargs.enable_thinking`
   *   (vLLM, SGLang) — `off` ⇒ `false` when `thinkingOff`, any level ⇒ `true`;
   * - `none`: nothing is sent.
   */
  thinkingSwitch: "reasoning_effort" | "enable_thinking" | "none";
  /** The output-cap field: OpenAI wants `max_completion_tokens`; older gateways read `max_tokens`. */
  maxTokensField: "max_completion_tokens" | "max_tokens";
  /** Send `request.cacheKey` as `prompt_cache_key`. */
  promptCacheKey: boolean;
}

/** Per-brain compat overrides: fixed, or chosen per model. */
export type OpenAICompatOption = Partial<OpenAICompat> | ((model: Model) => Partial<OpenAICompat> | undefined);

const OPENAI_HOST = /^https?:\/\/api\.openai\.com(\/|$)/i;

/** The compat flavour used for a model: defaults from its base URL, then the brain's overrides. */
export function resolveCompat(model: Model, baseUrl: string, option: OpenAICompatOption | undefined): OpenAICompat {
  const official = OPENAI_HOST.test(baseUrl);
  const defaults: OpenAICompat = official
    ? { thinkingSwitch: "reasoning_effort", maxTokensField: "max_completion_tokens", promptCacheKey: true }
    : { thinkingSwitch: "enable_thinking", maxTokensField: "max_tokens", promptCacheKey: false };
  const overrides = typeof option === "function" ? option(model) : option;
  return { ...defaults, ...overrides };
}
