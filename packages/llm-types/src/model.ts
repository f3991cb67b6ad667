import { z } from "zod/v4";

/** The two protocols this project ships brains for; other strings are allowed. */
export const KNOWN_APIS = ["openai-completions", "anthropic-messages", "faux"] as const;

/** Every wire this project ships a brain for: the values a model's `api` takes as they are. */
export const KNOWN_WIRES = [...KNOWN_APIS, "openai-responses"] as const;
/** A wire one of our brains speaks. */
export type KnownApi = (typeof KNOWN_WIRES)[number];

declare const customApiBrand: unique symbol;
/** The wire of a brain of your own, spelled with {@link customApi}; a bare string is refused at compile time. */
export type CustomApi = string & { readonly [customApiBrand]: true };

/**
 * Wire protocol a brain speaks: one of ours, or a custom brain's. A typo (`"openai-chat"`) does not
 * compile; a wire of your own goes through {@link customApi}, which says so where the model is declared.
 */
export type Api = KnownApi | CustomApi;

/** Names the wire of a brain you register yourself (`api: customApi("my-wire")`). Throws on an empty name. */
export function customApi(name: string): CustomApi {
  if (typeof name !== "string" || name.trim() === "") throw new TypeError("customApi needs a non-empty wire name");
  return name as CustomApi;
}

/**
 * Any non-empty string passes at run time: a catalog read from JSON may name a custom brain's wire, and
 * `createRunner` refuses a catalog model whose wire no registered brain speaks.
 */
export const ApiSchema = z.custom<Api>((value) => typeof value === "string" && value.length > 0, {
  message: "api must be a non-empty string naming a wire protocol",
});

export const InputKindSchema = z.enum(["text", "image"]);
export type InputKind = z.infer<typeof InputKindSchema>;

/** Prices in US dollars per million tokens. Multiplied by a token count this gives micro-dollars. */
export const ModelCostSchema = z.strictObject({
  input: z.number().nonnegative(),
  output: z.number().nonnegative(),
  cacheRead: z.number().nonnegative().default(0),
  cacheWrite: z.number().nonnegative().default(0),
});
export type ModelCost = z.infer<typeof ModelCostSchema>;

export const ModelSchema = z.strictObject({
  /** The id the provider's wire expects (`gpt-4.1-mini`, `claude-sonnet-4-5`). */
  id: z.string().min(1),
  /** Display name; defaults to the id where shown. */
  name: z.string().optional(),
  api: ApiSchema,
  provider: z.string().min(1),
  baseUrl: z.string().min(1),
  /** Whether the model produces reasoning (thinking) at all. */
  reasoning: z.boolean().default(false),
  /**
   * Whether the wire can spell thinking OFF for this model (Anthropic: omit `thinking`; Qwen-style
   * gateways: `enable_thinking: false`). A reasoning model whose wire cannot say "off" thinks anyway.
   */
  thinkingOff: z.boolean().default(true),
  /**
   * How the wire spells a reasoning level, where the API offers two ways: `budget` (a fixed thinking
   * budget, e.g. Anthropic's `budget_tokens`) or `adaptive` (the model decides, steered by an effort
   * level). Unset: the brain picks from the model id.
   */
  thinkingStyle: z.enum(["budget", "adaptive"]).optional(),
  input: z.array(InputKindSchema).default(["text"]),
  cost: ModelCostSchema.default({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }),
  contextWindow: z.number().int().positive(),
  maxTokens: z.number().int().positive(),
  headers: z.record(z.string(), z.string()).optional(),
});
/** A model as the host declares it (defaults may be omitted). */
export type ModelInput = z.input<typeof ModelSchema>;
/** A model with every default filled in; what the engine passes around. */
export type Model = z.infer<typeof ModelSchema>;

/**
 * Normalises a base URL for route comparison: scheme and host lower-cased, default ports dropped,
 * trailing slashes removed. Throws on a value that is not a string — a catalog with a broken
 * baseUrl must be loud, never silently "equal" or "different".
 */
export function normalizeBaseUrl(baseUrl: unknown): string {
  if (typeof baseUrl !== "string") {
    throw new TypeError(`baseUrl must be a string, got ${baseUrl === null ? "null" : typeof baseUrl}`);
  }
  const trimmed = baseUrl.trim();
  try {
    const url = new URL(trimmed);
    const defaultPort =
      (url.protocol === "https:" && url.port === "443") || (url.protocol === "http:" && url.port === "80");
    const port = url.port && !defaultPort ? `:${url.port}` : "";
    const path = url.pathname.replace(/\/+$/, "");
    return `${url.protocol}//${url.hostname.toLowerCase()}${port}${path}${url.search}`;
  } catch {
    // Not a URL (e.g. a symbolic endpoint name for a custom brain): compare it as text.
    return trimmed.replace(/\/+$/, "");
  }
}

/** The parts of a model that identify the endpoint a request goes to. */
export type RouteCarrier = Pick<Model, "provider" | "api" | "id"> & { baseUrl: unknown };

/**
 * Route identity: provider + api + normalised baseUrl + wire id. The one answer to "is this the same
 * endpoint?" — two catalog entries may share an id and still point at different endpoints.
 * Throws (via {@link normalizeBaseUrl}) on a non-string baseUrl.
 */
export function routeIdentity(model: RouteCarrier): string {
  return [model.provider, model.api, normalizeBaseUrl(model.baseUrl), model.id].join("\u0000");
}

/** True when both models resolve to the same route. Throws when either baseUrl is not a string. */
export function sameRoute(a: RouteCarrier, b: RouteCarrier): boolean {
  return routeIdentity(a) === routeIdentity(b);
}
