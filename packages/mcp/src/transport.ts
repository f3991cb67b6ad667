import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StdioClientTransport, getDefaultEnvironment } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { refreshOnce } from "./refresh-once";
import type { ResolvedServerConfig } from "./server-config";

/** A transport that can finish an OAuth sign-in: both HTTP transports of the SDK. */
export interface AuthorizingTransport extends Transport {
  finishAuth(authorizationCode: string): Promise<void>;
}

export function canFinishAuth(transport: Transport | undefined): transport is AuthorizingTransport {
  return typeof (transport as Partial<AuthorizingTransport> | undefined)?.finishAuth === "function";
}

/** A fresh SDK transport for a server: each (re)connection gets its own. */
export function createTransport(
  transport: ResolvedServerConfig["transport"],
  authProvider?: OAuthClientProvider,
): Transport {
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
  const options = {
    ...(transport.headers ? { requestInit: { headers: transport.headers } } : {}),
    ...(authProvider ? { authProvider, fetch: refreshOnce() } : {}),
  };
  const url = new URL(transport.url);
  if (transport.type === "sse") return new SSEClientTransport(url, options);
  return new StreamableHTTPClientTransport(url, options);
}
