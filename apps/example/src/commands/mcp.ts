import { homedir } from "node:os";
import { join } from "node:path";
import { connectMcp, createFileTokenStore, McpError, type McpAuth } from "@x/mcp";
import type { CliIo } from "../io";
import { DEFAULT_CALLBACK_PORT, type McpLoginCommand } from "../mcp-args";
import { startLoginCallback } from "../mcp-login";

/** Where signed-in servers' tokens are kept, unless `--tokens` says otherwise. */
export function tokenFile(env: Readonly<Record<string, string | undefined>>): string {
  return env.X_AGENT_MCP_TOKENS ?? join(env.HOME ?? homedir(), ".config", "x-agent", "mcp-tokens.json");
}

/** What `--mcp-url` servers sign in with: the tokens `x-agent mcp login` stored, refreshed as they expire. */
export function storedSignIns(env: Readonly<Record<string, string | undefined>>): McpAuth {
  const redirectUrl = `http://127.0.0.1:${DEFAULT_CALLBACK_PORT}/callback`;
  return { store: createFileTokenStore(tokenFile(env)), redirectUrl };
}

/**
 * `x-agent mcp login <url>`: signs in to a remote MCP server behind OAuth (the SDK's discovery,
 * registration and PKCE), the person opening the printed address in their browser and landing back
 * on a loopback callback; the tokens go to the token file, never to the terminal.
 */
export async function mcpCommandRun(command: McpLoginCommand, io: CliIo): Promise<number> {
  const file = command.tokens ?? tokenFile(io.env);
  const callback = await startLoginCallback(command.port, (url) => {
    io.emit({ type: "note", text: `open this address in your browser to sign in:\n${url.href}` });
  });
  try {
    const toolset = await connectMcp([
      {
        name: "login",
        transport: {
          type: "http",
          url: command.url,
          auth: { store: createFileTokenStore(file), redirectUrl: callback.redirectUrl, authorize: callback.authorize },
        },
      },
    ]);
    const tools = toolset.tools().length;
    await toolset.close();
    io.emit({ type: "note", text: `signed in to ${command.url}: ${tools} tools; tokens stored in ${file}` });
    return 0;
  } catch (error) {
    if (!(error instanceof McpError)) throw error;
    io.emit({ type: "error", code: error.code, message: error.message });
    return 1;
  } finally {
    await callback.close();
  }
}
