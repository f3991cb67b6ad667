import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StdioClientTransport, getDefaultEnvironment } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { ResolvedServerConfig } from "./server-config";

/** A fresh SDK transport for a server: each (re)connection gets its own. */
export function createTransport(transport: ResolvedServerConfig["transport"]): Transport {
  if (transport.type === "stdio") {
    return new StdioClientTransport({
      command: transport.command,
      args: transport.args ?? [],
      // The server sees only what it is given: our own environment may hold keys it has no business with.
      env: { ...getDefaultEnvironment(), ...transport.env },
      stderr: transport.stderr ?? "ignore",
      ...(transport.cwd !== undefined ? { cwd: transport.cwd } : {}),
    });
  }
  const requestInit = transport.headers ? { headers: transport.headers } : undefined;
  const url = new URL(transport.url);
  if (transport.type === "sse") return new SSEClientTransport(url, requestInit ? { requestInit } : {});
  return new StreamableHTTPClientTransport(url, requestInit ? { requestInit } : {});
}
