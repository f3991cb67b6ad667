/** `x-agent studio`'s own flags, as node:util's parseArgs reads them. */
export const STUDIO_OPTIONS = {
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
  host: { type: "string" },
  port: { type: "string" },
  parked: { type: "string", multiple: true },
  store: { type: "string" },
  scope: { type: "string", multiple: true },
  queue: { type: "string" },
  owner: { type: "string" },
  sandbox: { type: "string" },
} as const;

export interface StudioCommand {
  name: "studio";
  json: boolean;
  /** Default 127.0.0.1. */
  host: string;
  /** Default 0: any free port. */
  port: number;
  /** Folders of park files; `.x-agent/parked` always. */
  parked: string[];
  /** Strategy store: `postgres://…` or a SQLite file. */
  store?: string;
  /** Scopes the strategy page offers. */
  scopes: string[];
  /** The queue's PostgreSQL (`--queue`, else `PG_URL` when set). */
  queue?: string;
  owner: string;
  /** The workers' sandbox, for diffs of queued tasks' writes. */
  sandbox?: string;
}

/** Reads `x-agent studio`'s flags; `fail` makes the CLI's usage error. */
export function studioCommand(
  values: Record<string, unknown>,
  positionals: readonly string[],
  fail: (message: string) => Error,
): StudioCommand {
  if (positionals.length > 0) throw fail(`unexpected argument "${positionals[0]}" for "studio"`);
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw fail(`--port must be a port number (0-65535), got "${String(values.port)}"`);
  const queue = values.queue as string | undefined;
  if (queue !== undefined && !/^postgres(ql)?:\/\//.test(queue)) throw fail("--queue needs a postgres:// URL");
  const owner = (values.owner as string | undefined) ?? "default";
  if (owner.trim() === "") throw fail("--owner must not be empty");
  return {
    name: "studio",
    json: values.json === true,
    host: (values.host as string | undefined) ?? "127.0.0.1",
    port,
    parked: (values.parked as string[] | undefined) ?? [],
    scopes: (values.scope as string[] | undefined) ?? [],
    owner,
    ...(typeof values.store === "string" ? { store: values.store } : {}),
    ...(queue !== undefined ? { queue } : {}),
    ...(typeof values.sandbox === "string" ? { sandbox: values.sandbox } : {}),
  };
}
