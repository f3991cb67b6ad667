import { connectMcp, McpError, type McpAuth, type McpServerConfig, type McpToolset } from "@x/mcp";
import type { Tool } from "@x/runner";
import { UsageError } from "./args";

/**
 * Splits a `--mcp` command line into words the way a shell would for simple cases: spaces separate,
 * single or double quotes keep spaces inside a word. No variables, globs or escapes: the command is
 * spawned directly, never through a shell.
 */
export function splitCommand(line: string): string[] {
  const words: string[] = [];
  let word = "";
  let quote: string | undefined;
  let started = false;
  for (const char of line) {
    if (quote) {
      if (char === quote) quote = undefined;
      else word += char;
    } else if (char === '"' || char === "'") {
      quote = char;
      started = true;
    } else if (/\s/.test(char)) {
      if (started || word) words.push(word);
      word = "";
      started = false;
    } else {
      word += char;
    }
  }
  if (quote) throw new UsageError(`--mcp "${line}": a quote is not closed`);
  if (started || word) words.push(word);
  if (words.length === 0) throw new UsageError("--mcp needs a command that starts an MCP server over stdio");
  return words;
}

/**
 * The servers named on the command line: `--mcp "<command>"` (stdio) and `--mcp-url <url>`
 * (streamable HTTP), named `mcp`, `mcp2`, … in order, so their tools are `mcp__<tool>`. Every tool
 * goes to auto mode: the CLI does not trust any server's annotations. With `auth`, a URL server
 * behind OAuth signs in with what `x-agent mcp login` stored (and refreshes it); nobody is asked
 * mid-run, so a server with no stored sign-in fails `auth_required`.
 */
export function mcpServers(commands: readonly string[], urls: readonly string[], auth?: McpAuth): McpServerConfig[] {
  const configs: McpServerConfig[] = [];
  const name = () => (configs.length === 0 ? "mcp" : `mcp${configs.length + 1}`);
  for (const line of commands) {
    const [command, ...args] = splitCommand(line);
    configs.push({ name: name(), transport: { type: "stdio", command: command!, args } });
  }
  for (const url of urls) {
    if (!/^https?:\/\/[^/]/.test(url)) throw new UsageError(`--mcp-url must be an http(s) URL, got "${url}"`);
    configs.push({ name: name(), transport: { type: "http", url, ...(auth ? { auth } : {}) } });
  }
  return configs;
}

/**
 * Connects to the servers, or returns undefined when there are none. A server that wants a sign-in
 * nobody stored is a usage error that says how to sign in.
 */
export async function openMcp(configs: readonly McpServerConfig[]): Promise<McpToolset | undefined> {
  if (configs.length === 0) return undefined;
  try {
    return await connectMcp(configs);
  } catch (error) {
    if (!(error instanceof McpError) || error.code !== "auth_required") throw error;
    const config = configs.find((server) => server.name === error.server);
    const url = config && config.transport.type !== "stdio" ? config.transport.url : "<url>";
    throw new UsageError(`${error.message}; sign in first: x-agent mcp login ${url}`);
  }
}

/** The sandbox tools, then the servers' (a clash of names is refused by the toolset). */
export function withMcp(own: Tool[], mcp: McpToolset | undefined): Tool[] {
  return mcp ? mcp.withTools(own) : own;
}
