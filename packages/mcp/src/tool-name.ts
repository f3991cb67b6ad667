import { createHash } from "node:crypto";

/** Between the server's name and its tool's: server names hold no `_`, so the first `__` splits. */
export const TOOL_NAME_SEPARATOR = "__";

/** What providers accept as a tool name. */
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * The runner tool name for a server's tool: `<server>__<tool>`. A tool name with characters
 * providers refuse (`.`, `/`, spaces), or one too long, is rewritten and given a short hash of the
 * original, so two different server names never map to one runner name.
 */
export function mcpToolName(server: string, tool: string): string {
  const plain = `${server}${TOOL_NAME_SEPARATOR}${tool}`;
  if (TOOL_NAME.test(plain)) return plain;
  const hash = createHash("sha256").update(tool).digest("hex").slice(0, 8);
  const room = 64 - server.length - TOOL_NAME_SEPARATOR.length - hash.length - 1;
  const safe = tool.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, Math.max(0, room));
  return `${server}${TOOL_NAME_SEPARATOR}${safe}_${hash}`;
}

/** The server a runner tool name belongs to, or undefined when it is not an MCP tool name. */
export function mcpServerOf(name: string): string | undefined {
  const at = name.indexOf(TOOL_NAME_SEPARATOR);
  return at > 0 ? name.slice(0, at) : undefined;
}
