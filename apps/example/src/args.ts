import { parseArgs, type ParseArgsConfig } from "node:util";
import { closest } from "./suggest";
import { STUDIO_OPTIONS, studioCommand, type StudioCommand } from "./studio-args";
import { EVAL_OPTIONS, evalCommand, type EvalCommand } from "./eval-args";
import { MCP_OPTIONS, mcpCommand, type McpLoginCommand } from "./mcp-args";

/** A command line the CLI refuses; printed with a pointer to `--help`, exit code 2. */
export class UsageError extends Error {
  readonly code = "usage";
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

export const COMMANDS = [
  "demo",
  "run",
  "resume",
  "worker",
  "enqueue",
  "task",
  "studio",
  "eval",
  "mcp",
  "scenarios",
  "help",
] as const;
export type CommandName = (typeof COMMANDS)[number];

/** Options every command takes. */
const COMMON = {
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

const STORE = {
  store: { type: "string" },
  scope: { type: "string" },
  sandbox: { type: "string" },
  "create-sandbox": { type: "boolean" },
  "shell-timeout": { type: "string" },
} as const;

const ENDPOINT = {
  provider: { type: "string" },
  "base-url": { type: "string" },
  "api-key": { type: "string" },
  model: { type: "string" },
  "teacher-model": { type: "string" },
  "classifier-model": { type: "string" },
  price: { type: "string", multiple: true },
} as const;

const OPTIONS = {
  demo: { ...COMMON, ...STORE, "park-only": { type: "boolean" } },
  run: {
    ...COMMON,
    ...STORE,
    ...ENDPOINT,
    teacher: { type: "boolean" },
    ask: { type: "boolean" },
    "max-turns": { type: "string" },
    mcp: { type: "string", multiple: true },
    "mcp-url": { type: "string", multiple: true },
    mode: { type: "string" },
    file: { type: "string", multiple: true },
    timeout: { type: "string" },
  },
  resume: {
    ...COMMON,
    ...ENDPOINT,
    approve: { type: "boolean" },
    deny: { type: "boolean" },
    answer: { type: "string" },
    decline: { type: "boolean" },
    reason: { type: "string" },
  },
  worker: {
    ...COMMON,
    ...STORE,
    ...ENDPOINT,
    scripted: { type: "boolean" },
    concurrency: { type: "string" },
  },
  enqueue: {
    ...COMMON,
    store: { type: "string" },
    scope: { type: "string" },
    owner: { type: "string" },
    wait: { type: "boolean" },
    "max-turns": { type: "string" },
  },
  task: {
    ...COMMON,
    store: { type: "string" },
    owner: { type: "string" },
    sandbox: { type: "string" },
    approve: { type: "boolean" },
    deny: { type: "boolean" },
    reason: { type: "string" },
    wait: { type: "boolean" },
  },
  studio: STUDIO_OPTIONS,
  eval: EVAL_OPTIONS,
  mcp: MCP_OPTIONS,
  scenarios: { ...COMMON },
  help: { ...COMMON },
} as const satisfies Record<CommandName, ParseArgsConfig["options"]>;

export interface StoreArgs {
  /** `postgres://…` / `postgresql://…`, or a SQLite file path. */
  store?: string;
  scope?: string;
  sandbox?: string;
  /** `--create-sandbox`: make a `--sandbox` folder that does not exist (else it is refused). */
  createSandbox: boolean;
  shellTimeoutMs: number;
}

export interface EndpointArgs {
  provider?: "openai" | "openai-responses" | "anthropic";
  baseUrl?: string;
  apiKey?: string;
  model?: string;
  teacherModel?: string;
  classifierModel?: string;
  /** `$ per million tokens`, by model id. */
  prices: Record<string, { input: number; output: number }>;
}

export type Command =
  | { name: "help"; topic?: CommandName; json: boolean }
  | StudioCommand
  | EvalCommand
  | McpLoginCommand
  | { name: "scenarios"; json: boolean }
  | ({ name: "demo"; scenario?: string; json: boolean; parkOnly: boolean } & StoreArgs)
  | ({
      name: "run";
      objective: string;
      json: boolean;
      teacher: boolean;
      ask?: boolean;
      maxTurns?: number;
      /** `--timeout <seconds>`: the deadline of each model call (a stalled or slow server is cut, then retried). */
      timeoutMs?: number;
      /** `--mcp` command lines (stdio servers) and `--mcp-url` endpoints (streamable HTTP), in order. */
      mcp: string[];
      mcpUrls: string[];
      /** `--mode`: the task loop in teacher mode (the default), or a review council over `files`. */
      mode?: RunMode;
      /** `--file`: what a council reviews, paths inside the sandbox. */
      files: string[];
    } & StoreArgs &
      EndpointArgs)
  | ({
      name: "resume";
      file: string;
      json: boolean;
      /**
       * Absent: the pending call is only shown, nothing is decided. `answer` / `decline` answer a
       * tool's question (a park of kind `elicitation`); `approve` / `deny` any other park.
       */
      decision?: "approve" | "deny" | "answer" | "decline";
      /** With `answer`: the form filled in, as a JSON object (`--answer '{"seat":"12A"}'`). */
      answer?: Record<string, string | number | boolean | string[]>;
      reason?: string;
    } & EndpointArgs)
  | ({ name: "worker"; json: boolean; queue: string; scripted: boolean; concurrency: number } & StoreArgs &
      EndpointArgs)
  | {
      name: "enqueue";
      json: boolean;
      queue: string;
      objective: string;
      owner: string;
      scope?: string;
      wait: boolean;
      maxTurns?: number;
    }
  | {
      name: "task";
      json: boolean;
      queue: string;
      taskId: string;
      owner: string;
      wait: boolean;
      decision?: "approve" | "deny";
      reason?: string;
      /** The workers' sandbox: a parked write onto a file there is shown as a diff. */
      sandbox?: string;
    };

export const RUN_MODES = ["teacher", "council"] as const;
export type RunMode = (typeof RUN_MODES)[number];

/** `run` flags a council review has no use for: refused rather than silently ignored. */
const NOT_FOR_COUNCIL = ["teacher", "ask", "mcp", "mcp-url", "store", "scope", "teacher-model", "classifier-model"];

export const DEFAULT_SHELL_TIMEOUT_MS = 10_000;
const MAX_SHELL_TIMEOUT_S = 3_600;

/**
 * Reads a command line. The first word picks the command (`demo` when the line starts with an
 * option or is empty); each command accepts only its own options, so a misspelt or misplaced flag
 * is an error rather than silently ignored.
 */
export function parseCommandLine(argv: readonly string[]): Command {
  const first = argv[0];
  let name: CommandName = "demo";
  let explicit = false;
  let rest = argv;
  if (first !== undefined && !first.startsWith("-")) {
    if (!(COMMANDS as readonly string[]).includes(first)) {
      throw new UsageError(`unknown command "${first}" (commands: ${COMMANDS.join(", ")})`);
    }
    name = first as CommandName;
    explicit = true;
    rest = argv.slice(1);
  }
  const parsed = parse(name, rest);
  const values = parsed.values as Record<string, string | boolean | string[] | undefined>;
  const positionals = parsed.positionals;
  const json = values.json === true;
  if (values.help === true) return { name: "help", topic: explicit && name !== "help" ? name : undefined, json };

  switch (name) {
    case "help": {
      const topic = positionals[0];
      if (topic !== undefined && !(COMMANDS as readonly string[]).includes(topic))
        throw new UsageError(`no help for "${topic}"`);
      noExtra(positionals.slice(1), name);
      return { name, topic: topic as CommandName | undefined, json };
    }
    case "scenarios":
      noExtra(positionals, name);
      return { name, json };
    case "studio":
      return studioCommand(values, positionals, (message) => new UsageError(message));
    case "eval":
      return evalCommand(values, positionals, (message) => new UsageError(message));
    case "mcp":
      return mcpCommand(values, positionals, (message) => new UsageError(message));
    case "demo": {
      noExtra(positionals.slice(1), name);
      const scenario = positionals[0];
      return {
        name,
        json,
        parkOnly: values["park-only"] === true,
        ...(scenario !== undefined ? { scenario } : {}),
        ...storeArgs(values),
      };
    }
    case "run": {
      const objective = positionals.join(" ").trim();
      if (objective === "") throw new UsageError('run needs an objective: x-agent run "<what to do>"');
      const maxTurns =
        values["max-turns"] === undefined ? undefined : positiveInt(values["max-turns"] as string, "--max-turns");
      const mode = runMode(values);
      const timeout = values.timeout === undefined ? undefined : positiveInt(values.timeout as string, "--timeout");
      return {
        name,
        objective,
        json,
        ...(timeout !== undefined ? { timeoutMs: timeout * 1000 } : {}),
        ...(mode !== undefined ? { mode } : {}),
        files: (values.file as string[] | undefined) ?? [],
        teacher: values.teacher !== false,
        ...(typeof values.ask === "boolean" ? { ask: values.ask } : {}),
        ...(maxTurns !== undefined ? { maxTurns } : {}),
        mcp: (values.mcp as string[] | undefined) ?? [],
        mcpUrls: (values["mcp-url"] as string[] | undefined) ?? [],
        ...storeArgs(values),
        ...endpointArgs(values),
      };
    }
    case "worker":
      noExtra(positionals, name);
      return {
        name,
        json,
        queue: queueUrl(values),
        scripted: values.scripted === true,
        concurrency: values.concurrency === undefined ? 4 : positiveInt(values.concurrency as string, "--concurrency"),
        ...storeArgs(values),
        ...endpointArgs(values),
      };
    case "enqueue": {
      const objective = positionals.join(" ").trim();
      if (objective === "")
        throw new UsageError('enqueue needs an objective: x-agent enqueue "<what to do>" --store postgres://…');
      const maxTurns =
        values["max-turns"] === undefined ? undefined : positiveInt(values["max-turns"] as string, "--max-turns");
      const scope = storeArgs(values).scope;
      return {
        name,
        json,
        queue: queueUrl(values),
        objective,
        owner: ownerOf(values),
        wait: values.wait === true,
        ...(scope !== undefined ? { scope } : {}),
        ...(maxTurns !== undefined ? { maxTurns } : {}),
      };
    }
    case "task": {
      const taskId = positionals[0];
      if (taskId === undefined) throw new UsageError("task needs a task id: x-agent task <id> --store postgres://…");
      noExtra(positionals.slice(1), name);
      if (values.approve === true && values.deny === true)
        throw new UsageError("task takes --approve or --deny, not both");
      const decision = values.approve === true ? "approve" : values.deny === true ? "deny" : undefined;
      const reason = values.reason as string | undefined;
      return {
        name,
        json,
        queue: queueUrl(values),
        taskId,
        owner: ownerOf(values),
        wait: values.wait === true,
        ...(decision ? { decision } : {}),
        ...(reason !== undefined ? { reason } : {}),
        ...(storeArgs(values).sandbox !== undefined ? { sandbox: storeArgs(values).sandbox } : {}),
      };
    }
    case "resume": {
      const file = positionals[0];
      if (file === undefined)
        throw new UsageError(
          "resume needs the parked file: x-agent resume <file> [--approve|--deny|--answer <json>|--decline]",
        );
      noExtra(positionals.slice(1), name);
      const given = (["approve", "deny", "answer", "decline"] as const).filter((flag) => values[flag] !== undefined);
      if (given.length > 1)
        throw new UsageError(
          `resume takes one of --approve, --deny, --answer or --decline, not ${given.join(" and ")}`,
        );
      const decision = given[0];
      const reason = values.reason as string | undefined;
      if (reason !== undefined && decision === undefined)
        throw new UsageError("--reason goes with --approve, --deny or --decline");
      const answer = decision === "answer" ? formAnswer(values.answer as string) : undefined;
      return {
        name,
        file,
        json,
        ...(decision ? { decision } : {}),
        ...(answer ? { answer } : {}),
        ...(reason !== undefined ? { reason } : {}),
        ...endpointArgs(values),
      };
    }
  }
}

function parse(name: CommandName, args: readonly string[]) {
  try {
    return parseArgs({
      args: [...args],
      options: OPTIONS[name],
      allowPositionals: true,
      allowNegative: true,
      strict: true,
    });
  } catch (error) {
    // node:util's messages already name the flag; drop its advice about `--` which does not apply here.
    const message = (error as Error).message.replace(/\. To specify a positional argument.*$/s, "");
    const unknown = /^Unknown option '(--[^'=]+)'/.exec(message)?.[1];
    const flags = Object.entries(OPTIONS[name]).flatMap(([flag, option]) =>
      option.type === "boolean" ? [`--${flag}`, `--no-${flag}`] : [`--${flag}`],
    );
    const meant = unknown === undefined ? undefined : closest(unknown, flags);
    throw new UsageError(`${message} (for "${name}")${meant ? `; did you mean ${meant}?` : ""}`);
  }
}

/** `--mode`, and the flags that go with it: a council needs `--file`s and takes none of the task loop's own flags. */
function runMode(values: Record<string, unknown>): RunMode | undefined {
  const mode = values.mode as string | undefined;
  const files = (values.file as string[] | undefined) ?? [];
  if (mode !== undefined && !(RUN_MODES as readonly string[]).includes(mode))
    throw new UsageError(`--mode must be "teacher" or "council", got "${mode}"`);
  if (mode !== "council") {
    if (files.length > 0) throw new UsageError("--file is for --mode council (the files a council reviews)");
    return mode as RunMode | undefined;
  }
  if (files.length === 0)
    throw new UsageError("--mode council needs the files to review: --file <path> (repeatable, inside the sandbox)");
  if (files.some((file) => file.trim() === "")) throw new UsageError("--file needs a path");
  for (const flag of NOT_FOR_COUNCIL) {
    if (values[flag] === undefined) continue;
    const spelt = values[flag] === false ? `--no-${flag}` : `--${flag}`;
    throw new UsageError(`${spelt} does nothing with --mode council`);
  }
  return mode;
}

/** The queue lives in PostgreSQL: `--store` must be a postgres:// URL. */
function queueUrl(values: Record<string, unknown>): string {
  const store = values.store;
  if (typeof store !== "string" || !/^postgres(ql)?:\/\//.test(store))
    throw new UsageError("the task queue needs --store postgres://… (the PostgreSQL the workers share)");
  return store;
}

function ownerOf(values: Record<string, unknown>): string {
  const owner = values.owner;
  if (owner === undefined) return "default";
  if (typeof owner !== "string" || owner.trim() === "") throw new UsageError("--owner must not be empty");
  return owner;
}

function noExtra(positionals: readonly string[], name: CommandName): void {
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}" for "${name}"`);
}

function positiveInt(text: string, flag: string): number {
  if (!/^\d+$/.test(text) || Number(text) < 1)
    throw new UsageError(`${flag} must be a positive whole number, got "${text}"`);
  return Number(text);
}

function storeArgs(values: Record<string, unknown>): StoreArgs {
  const out: StoreArgs = { shellTimeoutMs: DEFAULT_SHELL_TIMEOUT_MS, createSandbox: values["create-sandbox"] === true };
  if (out.createSandbox && values.sandbox === undefined)
    throw new UsageError("--create-sandbox makes the folder --sandbox names: give --sandbox <dir> too");
  if (typeof values.store === "string") {
    if (values.store.trim() === "") throw new UsageError("--store needs a postgres:// URL or a SQLite file path");
    out.store = values.store;
  }
  if (typeof values.scope === "string") {
    if (values.scope.trim() === "") throw new UsageError("--scope must not be empty");
    out.scope = values.scope;
  }
  if (typeof values.sandbox === "string") {
    // An empty path would resolve to the current folder: the tools would act on everything here.
    if (values.sandbox.trim() === "") throw new UsageError("--sandbox needs a folder path");
    out.sandbox = values.sandbox;
  }
  if (typeof values["shell-timeout"] === "string") {
    const seconds = positiveInt(values["shell-timeout"], "--shell-timeout");
    // Past ~24.8 days a Node timer overflows and fires at once: every command would be killed at start.
    if (seconds > MAX_SHELL_TIMEOUT_S)
      throw new UsageError(`--shell-timeout is at most ${MAX_SHELL_TIMEOUT_S} seconds, got ${seconds}`);
    out.shellTimeoutMs = seconds * 1000;
  }
  return out;
}

function endpointArgs(values: Record<string, unknown>): EndpointArgs {
  const out: EndpointArgs = { prices: {} };
  const provider = values.provider as string | undefined;
  if (provider !== undefined) {
    if (provider !== "openai" && provider !== "openai-responses" && provider !== "anthropic")
      throw new UsageError(`--provider must be "openai", "openai-responses" or "anthropic", got "${provider}"`);
    out.provider = provider;
  }
  const baseUrl = values["base-url"];
  if (typeof baseUrl === "string") {
    if (!/^https?:\/\/[^/]/.test(baseUrl)) throw new UsageError(`--base-url must be an http(s) URL, got "${baseUrl}"`);
    out.baseUrl = baseUrl;
  }
  if (typeof values["api-key"] === "string") out.apiKey = values["api-key"];
  if (typeof values.model === "string") out.model = values.model;
  if (typeof values["teacher-model"] === "string") out.teacherModel = values["teacher-model"];
  if (typeof values["classifier-model"] === "string") out.classifierModel = values["classifier-model"];
  for (const entry of (values.price as string[] | undefined) ?? []) {
    const match = /^(.+)=(\d+(?:\.\d+)?)\/(\d+(?:\.\d+)?)$/.exec(entry);
    if (!match)
      throw new UsageError(
        `--price takes MODEL=INPUT/OUTPUT in $ per million tokens (e.g. gpt-4.1-mini=0.4/1.6), got "${entry}"`,
      );
    out.prices[match[1]!] = { input: Number(match[2]), output: Number(match[3]) };
  }
  return out;
}

/** `--answer`'s JSON: an object of the form's fields. The runner checks it against the question's form. */
function formAnswer(text: string): Record<string, string | number | boolean | string[]> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new UsageError(
      `--answer takes the form's fields as a JSON object, e.g. --answer '{"seat":"12A"}' (got ${text})`,
    );
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new UsageError(`--answer takes a JSON object of the form's fields (got ${text})`);
  return value as Record<string, string | number | boolean | string[]>;
}
