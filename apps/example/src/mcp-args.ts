/** `x-agent mcp`'s own flags, as node:util's parseArgs reads them. */
export const MCP_OPTIONS = {
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
  tokens: { type: "string" },
  port: { type: "string" },
} as const;

/** The default loopback port of the sign-in callback: the redirect URI a registered client keeps. */
export const DEFAULT_CALLBACK_PORT = 53_682;

export interface McpLoginCommand {
  name: "mcp";
  action: "login";
  json: boolean;
  /** The remote MCP server (streamable HTTP) to sign in to. */
  url: string;
  /** The token file; default `X_AGENT_MCP_TOKENS`, else `~/.config/x-agent/mcp-tokens.json`. */
  tokens?: string;
  /** The loopback callback's port (0: any free one). */
  port: number;
}

/** Reads `x-agent mcp login <url>`; `fail` makes the CLI's usage error. */
export function mcpCommand(
  values: Record<string, unknown>,
  positionals: readonly string[],
  fail: (message: string) => Error,
): McpLoginCommand {
  const [action, url, ...extra] = positionals;
  if (action !== "login") throw fail(`x-agent mcp: the subcommand is "login" (got "${action ?? ""}")`);
  if (url === undefined || !/^https?:\/\/[^/]/.test(url))
    throw fail(`x-agent mcp login needs the server's http(s) URL, got "${url ?? ""}"`);
  if (extra.length > 0) throw fail(`unexpected argument "${extra[0]}" for "mcp login"`);
  const port = values.port === undefined ? DEFAULT_CALLBACK_PORT : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw fail(`--port must be a port number (0-65535), got "${String(values.port)}"`);
  return {
    name: "mcp",
    action: "login",
    json: values.json === true,
    url,
    port,
    ...(typeof values.tokens === "string" ? { tokens: values.tokens } : {}),
  };
}
