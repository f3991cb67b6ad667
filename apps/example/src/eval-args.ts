/** `x-agent eval auto-mode`'s own flags, as node:util's parseArgs reads them. */
export const EVAL_OPTIONS = {
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
  provider: { type: "string" },
  "base-url": { type: "string" },
  "api-key": { type: "string" },
  model: { type: "string" },
  price: { type: "string", multiple: true },
  dataset: { type: "string", multiple: true },
  split: { type: "string" },
  rules: { type: "string" },
  prompt: { type: "string" },
  record: { type: "string" },
  replay: { type: "string" },
  concurrency: { type: "string" },
} as const;

export interface EvalCommand {
  name: "eval";
  json: boolean;
  /** What is evaluated; `auto-mode` is the one there is. */
  target: "auto-mode";
  provider?: "openai" | "openai-responses" | "anthropic";
  baseUrl?: string;
  apiKey?: string;
  model?: string;
  prices: Record<string, { input: number; output: number }>;
  /** Dataset names shipped with @x/auto-mode-eval, or paths to dataset files. Default: every shipped one. */
  datasets: string[];
  split: "dev" | "heldout" | "all";
  /** A text file whose content replaces the classifier's system prompt. */
  prompt?: string;
  /** A JSON file of auto-mode rules, applied before the classifier. */
  rules?: string;
  /** Write every classifier reply here. */
  record?: string;
  /** Replay this recording: no endpoint, no key. */
  replay?: string;
  concurrency: number;
}

const PROVIDERS = ["openai", "openai-responses", "anthropic"] as const;

/** Reads `x-agent eval`'s flags; `fail` makes the CLI's usage error. */
export function evalCommand(
  values: Record<string, unknown>,
  positionals: readonly string[],
  fail: (message: string) => Error,
): EvalCommand {
  const [target, ...extra] = positionals;
  if (target !== "auto-mode") throw fail(`x-agent eval takes what to evaluate: "auto-mode", got "${target ?? ""}"`);
  if (extra.length > 0) throw fail(`unexpected argument "${extra[0]}" for "eval"`);
  const provider = values.provider as string | undefined;
  if (provider !== undefined && !(PROVIDERS as readonly string[]).includes(provider))
    throw fail(`--provider must be "openai", "openai-responses" or "anthropic", got "${provider}"`);
  const baseUrl = values["base-url"] as string | undefined;
  if (baseUrl !== undefined && !/^https?:\/\/[^/]/.test(baseUrl))
    throw fail(`--base-url must be an http(s) URL, got "${baseUrl}"`);
  const split = (values.split as string | undefined) ?? "all";
  if (split !== "dev" && split !== "heldout" && split !== "all")
    throw fail(`--split must be "dev", "heldout" or "all", got "${split}"`);
  const concurrency = values.concurrency === undefined ? 4 : Number(values.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64)
    throw fail(`--concurrency must be a whole number from 1 to 64, got "${String(values.concurrency)}"`);
  if (values.record !== undefined && values.replay !== undefined)
    throw fail("--record and --replay do not go together: a replay calls no model");
  const prices: EvalCommand["prices"] = {};
  for (const entry of (values.price as string[] | undefined) ?? []) {
    const match = /^(.+)=(\d+(?:\.\d+)?)\/(\d+(?:\.\d+)?)$/.exec(entry);
    if (!match) throw fail(`--price takes MODEL=INPUT/OUTPUT in $ per million tokens, got "${entry}"`);
    prices[match[1]!] = { input: Number(match[2]), output: Number(match[3]) };
  }
  const text = (key: string) => {
    const value = values[key];
    return typeof value === "string" ? value : undefined;
  };
  const optional = {
    provider: provider as EvalCommand["provider"],
    baseUrl,
    apiKey: text("api-key"),
    model: text("model"),
    rules: text("rules"),
    prompt: text("prompt"),
    record: text("record"),
    replay: text("replay"),
  };
  return {
    name: "eval",
    json: values.json === true,
    target,
    prices,
    datasets: (values.dataset as string[] | undefined) ?? [],
    split,
    concurrency,
    ...Object.fromEntries(Object.entries(optional).filter(([, value]) => value !== undefined)),
  };
}
