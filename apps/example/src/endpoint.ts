import { defineModel, type Model, type KnownApi } from "@x/llm-types";
import { UsageError, type EndpointArgs } from "./args";

/** `openai-responses`: OpenAI through the Responses API (reasoning items kept across tool calls). */
export type Provider = "openai" | "openai-responses" | "anthropic";

/** Where a real run sends its model calls: everything but the key, so it can be written into a park file. */
export interface EndpointConfig {
  provider: Provider;
  baseUrl: string;
  model: string;
  teacherModel: string;
  classifierModel?: string;
  prices: Record<string, { input: number; output: number }>;
}

export const DEFAULT_BASE_URLS: Record<Provider, string> = {
  openai: "https://api.openai.com/v1",
  "openai-responses": "https://api.openai.com/v1",
  anthropic: "https://api.anthropic.com",
};

const ENV_PREFIX: Record<Provider, string> = { openai: "OPENAI", "openai-responses": "OPENAI", anthropic: "ANTHROPIC" };

type Env = Readonly<Record<string, string | undefined>>;

function nonEmpty(value: string | undefined): string | undefined {
  return value !== undefined && value.trim() !== "" ? value.trim() : undefined;
}

/**
 * The endpoint from flags, else the environment: `--provider` (else anthropic when only
 * ANTHROPIC_API_KEY is set, else openai), `--base-url` / `<P>_BASE_URL`, `--api-key` / `<P>_API_KEY`,
 * `--model` / `X_AGENT_MODEL` / `<P>_MODEL`, `--teacher-model` / `X_AGENT_TEACHER_MODEL` (default: the
 * student's model), `--classifier-model` / `X_AGENT_CLASSIFIER_MODEL` (default: the core's choice).
 */
export function resolveEndpoint(args: EndpointArgs, env: Env): { config: EndpointConfig; apiKey?: string } {
  const provider: Provider =
    args.provider ??
    (nonEmpty(env.ANTHROPIC_API_KEY) && !nonEmpty(env.OPENAI_API_KEY) && !args.baseUrl ? "anthropic" : "openai");
  const prefix = ENV_PREFIX[provider];
  const baseUrl = args.baseUrl ?? nonEmpty(env[`${prefix}_BASE_URL`]) ?? DEFAULT_BASE_URLS[provider];
  const apiKey = nonEmpty(args.apiKey) ?? nonEmpty(env[`${prefix}_API_KEY`]);
  const model = nonEmpty(args.model) ?? nonEmpty(env.X_AGENT_MODEL) ?? nonEmpty(env[`${prefix}_MODEL`]);
  if (model === undefined) {
    throw new UsageError(
      `no model: pass --model <id> or set X_AGENT_MODEL or ${prefix}_MODEL (no key at all? try: x-agent demo)`,
    );
  }
  // A local gateway often takes no key; the providers' own endpoints always do.
  if (apiKey === undefined && baseUrl === DEFAULT_BASE_URLS[provider]) {
    throw new UsageError(
      `no API key for ${baseUrl}: pass --api-key or set ${prefix}_API_KEY (no key at all? try: x-agent demo)`,
    );
  }
  const config: EndpointConfig = {
    provider,
    baseUrl,
    model,
    teacherModel: nonEmpty(args.teacherModel) ?? nonEmpty(env.X_AGENT_TEACHER_MODEL) ?? model,
    prices: args.prices,
  };
  const classifier = nonEmpty(args.classifierModel) ?? nonEmpty(env.X_AGENT_CLASSIFIER_MODEL);
  if (classifier !== undefined) config.classifierModel = classifier;
  return apiKey === undefined ? { config } : { config, apiKey };
}

/** The note a run shows when its model has no `--price`: its cost column would read $0. */
export function missingPrice(config: EndpointConfig): string | undefined {
  if (config.prices[config.model] !== undefined) return undefined;
  const flag = `--price ${config.model}=<in>/<out>`;
  return `no price for ${config.model}: cost shows $0 (add ${flag}, $ per million tokens)`;
}

/** The API key for a run resumed from a park file: flags, else the environment. */
export function resolveApiKey(provider: Provider, args: Pick<EndpointArgs, "apiKey">, env: Env): string | undefined {
  return nonEmpty(args.apiKey) ?? nonEmpty(env[`${ENV_PREFIX[provider]}_API_KEY`]);
}

export const ENDPOINT_API: Record<Provider, KnownApi> = {
  openai: "openai-completions",
  "openai-responses": "openai-responses",
  anthropic: "anthropic-messages",
};

/**
 * One catalog entry for a model id on this endpoint. Window and cap are conservative guesses; prices come from
 * --price.
 */
export function endpointModel(config: EndpointConfig, id: string): Model {
  const price = config.prices[id];
  return defineModel({
    id,
    api: ENDPOINT_API[config.provider],
    provider: config.provider,
    baseUrl: config.baseUrl,
    contextWindow: 128_000,
    maxTokens: 4_096,
    ...(price ? { cost: { input: price.input, output: price.output } } : {}),
  });
}
