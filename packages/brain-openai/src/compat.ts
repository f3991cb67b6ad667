import type { Model } from "@x/llm-types";

/**
 * How an OpenAI-compatible endpoint spells the knobs the Chat Completions standard leaves open.
 * Defaults are picked from the base URL: the hosted APIs this brain knows get their documented
 * spellings (see {@link KNOWN_HOSTS}); any other endpoint (vLLM, SGLang, Ollama, LiteLLM) the
 * common gateway ones.
 */
export interface OpenAICompat {
  /**
   * How reasoning is controlled, for models with `reasoning: true`:
   * - `reasoning_effort`: the `reasoning_effort` field (OpenAI, Azure OpenAI, xAI, Groq) — `off` is
   *   sent as `none` when the model's `thinkingOff` says the wire can spell it, otherwise left at
   *   the model's default;
   * - `enable_thinking`: the Qwen-style chat-template switch `chat_template_kwargs.enable_thinking`
   *   (vLLM, SGLang) — `off` ⇒ `false` when `thinkingOff`, any level ⇒ `true`;
   * - `enable_thinking_param`: DashScope's top-level `enable_thinking` boolean, same rule;
   * - `reasoning_object`: OpenRouter's `reasoning: { effort }` (`off` ⇒ `{ effort: "none" }` when `thinkingOff`);
   * - `none`: nothing is sent (the model id decides, e.g. `deepseek-reasoner`).
   */
  thinkingSwitch: "reasoning_effort" | "enable_thinking" | "enable_thinking_param" | "reasoning_object" | "none";
  /**
   * The output-cap field: OpenAI and Azure OpenAI want `max_completion_tokens` (their reasoning models refuse
   * `max_tokens`); most gateways read `max_tokens`.
   */
  maxTokensField: "max_completion_tokens" | "max_tokens";
  /** Send `request.cacheKey` as `prompt_cache_key`. */
  promptCacheKey: boolean;
}

/** Per-brain compat overrides: fixed, or chosen per model. */
export type OpenAICompatOption = Partial<OpenAICompat> | ((model: Model) => Partial<OpenAICompat> | undefined);

/** A hosted API recognised by its base URL's host name, with the spellings its documentation gives. */
export interface KnownHost {
  /** Short name, as the README's host table shows it. */
  name: string;
  /** Matches the lower-cased host name. */
  host: RegExp;
  compat: OpenAICompat;
}

const GATEWAY: OpenAICompat = {
  thinkingSwitch: "enable_thinking",
  maxTokensField: "max_tokens",
  promptCacheKey: false,
};

/** Hosts read from their documentation; anything else gets the gateway defaults. */
export const KNOWN_HOSTS: readonly KnownHost[] = [
  {
    name: "openai",
    host: /^api\.openai\.com$/,
    compat: { thinkingSwitch: "reasoning_effort", maxTokensField: "max_completion_tokens", promptCacheKey: true },
  },
  {
    // Azure OpenAI's v1 endpoint (`https://<resource>.openai.azure.com/openai/v1`) and AI Foundry hosts.
    name: "azure",
    host: /\.(openai\.azure\.com|cognitiveservices\.azure\.com|services\.ai\.azure\.com)$/,
    compat: { thinkingSwitch: "reasoning_effort", maxTokensField: "max_completion_tokens", promptCacheKey: false },
  },
  { name: "xai", host: /^api\.x\.ai$/, compat: { ...GATEWAY, thinkingSwitch: "reasoning_effort" } },
  { name: "groq", host: /^api\.groq\.com$/, compat: { ...GATEWAY, thinkingSwitch: "reasoning_effort" } },
  { name: "deepseek", host: /^api\.deepseek\.com$/, compat: { ...GATEWAY, thinkingSwitch: "none" } },
  { name: "mistral", host: /^api\.mistral\.ai$/, compat: { ...GATEWAY, thinkingSwitch: "none" } },
  {
    name: "dashscope",
    host: /^dashscope(-intl|-us)?\.aliyuncs\.com$/,
    compat: { ...GATEWAY, thinkingSwitch: "enable_thinking_param" },
  },
  { name: "openrouter", host: /^openrouter\.ai$/, compat: { ...GATEWAY, thinkingSwitch: "reasoning_object" } },
];

/** Base URLs already looked up; a process talks to a handful, so the bound only guards against misuse. */
const hostsByUrl = new Map<string, KnownHost | undefined>();
const MAX_REMEMBERED_URLS = 256;

/** The known host a base URL points at, if any. */
export function knownHost(baseUrl: string): KnownHost | undefined {
  // Asked on every call with one of a few base URLs: parsing one costs more than the rest of the lookup.
  if (hostsByUrl.has(baseUrl)) return hostsByUrl.get(baseUrl);
  let known: KnownHost | undefined;
  try {
    const host = new URL(baseUrl).hostname.toLowerCase();
    known = KNOWN_HOSTS.find((candidate) => candidate.host.test(host));
  } catch {
    known = undefined;
  }
  if (hostsByUrl.size >= MAX_REMEMBERED_URLS) hostsByUrl.clear();
  hostsByUrl.set(baseUrl, known);
  return known;
}

/** The compat flavour used for a model: defaults from its base URL, then the brain's overrides. */
export function resolveCompat(model: Model, baseUrl: string, option: OpenAICompatOption | undefined): OpenAICompat {
  const defaults = knownHost(baseUrl)?.compat ?? GATEWAY;
  const overrides = typeof option === "function" ? option(model) : option;
  return { ...defaults, ...overrides };
}
