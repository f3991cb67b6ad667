// A real MCP server from npm (@modelcontextprotocol/server-everything, over stdio) behind a real
// OAuth 2.1 flow on 127.0.0.1: the SDK's own authorization-server router (metadata, dynamic
// registration, PKCE-checked authorize and token endpoints) and bearer middleware guard a
// streamable HTTP front that hands each session's messages to its own server-everything process.
// `expireAccessTokens()` ends every access token at once (refresh tokens stay good), so a test
// reaches a refresh without waiting for a clock.
import { randomBytes, randomUUID } from "node:crypto";
import type { Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { StdioClientTransport, getDefaultEnvironment } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { OAuthRegisteredClientsStore } from "@modelcontextprotocol/sdk/server/auth/clients.js";
import { InvalidGrantError, InvalidTokenError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import { requireBearerAuth } from "@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js";
import type { AuthorizationParams, OAuthServerProvider } from "@modelcontextprotocol/sdk/server/auth/provider.js";
import { getOAuthProtectedResourceMetadataUrl, mcpAuthRouter } from "@modelcontextprotocol/sdk/server/auth/router.js";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { OAuthClientInformationFull, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import express, { type Response } from "express";
import { EVERYTHING_SERVER } from "./servers";

interface Grant {
  clientId: string;
  challenge: string;
  redirectUri: string;
  scopes: string[];
}

interface Issued {
  clientId: string;
  scopes: string[];
  expiresAt: number;
}

/** What the authorization server did, for a test to read. */
export interface OAuthLog {
  registrations: number;
  codeGrants: number;
  refreshGrants: number;
  /** Every access token, refresh token and client secret it ever issued. */
  secrets: string[];
}

class TestAuthProvider implements OAuthServerProvider {
  readonly log: OAuthLog = { registrations: 0, codeGrants: 0, refreshGrants: 0, secrets: [] };
  tokenLifetimeMs = 600_000;
  private readonly clients = new Map<string, OAuthClientInformationFull>();
  private readonly codes = new Map<string, Grant>();
  private readonly access = new Map<string, Issued>();
  private readonly refresh = new Map<string, Omit<Issued, "expiresAt">>();

  readonly clientsStore: OAuthRegisteredClientsStore = {
    getClient: (id) => this.clients.get(id),
    registerClient: (metadata) => {
      const client = { ...metadata, client_id: randomUUID(), client_id_issued_at: Math.floor(Date.now() / 1000) };
      if (client.client_secret) this.log.secrets.push(client.client_secret);
      this.clients.set(client.client_id, client);
      this.log.registrations += 1;
      return client;
    },
  };

  /** The person approves at once: the redirect carries the code and the client's state. */
  authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: Response): Promise<void> {
    const code = randomBytes(16).toString("hex");
    const grant = { clientId: client.client_id, challenge: params.codeChallenge, redirectUri: params.redirectUri };
    this.codes.set(code, { ...grant, scopes: params.scopes ?? [] });
    const target = new URL(params.redirectUri);
    target.searchParams.set("code", code);
    if (params.state !== undefined) target.searchParams.set("state", params.state);
    res.redirect(target.href);
    return Promise.resolve();
  }

  challengeForAuthorizationCode(_client: OAuthClientInformationFull, code: string): Promise<string> {
    const grant = this.codes.get(code);
    if (!grant) throw new InvalidGrantError("unknown code");
    return Promise.resolve(grant.challenge);
  }

  exchangeAuthorizationCode(client: OAuthClientInformationFull, code: string): Promise<OAuthTokens> {
    const grant = this.codes.get(code);
    if (!grant || grant.clientId !== client.client_id) throw new InvalidGrantError("unknown code");
    this.codes.delete(code);
    this.log.codeGrants += 1;
    return Promise.resolve(this.issue(client.client_id, grant.scopes));
  }

  exchangeRefreshToken(client: OAuthClientInformationFull, refreshToken: string): Promise<OAuthTokens> {
    const known = this.refresh.get(refreshToken);
    if (!known || known.clientId !== client.client_id) throw new InvalidGrantError("unknown refresh token");
    this.refresh.delete(refreshToken);
    this.log.refreshGrants += 1;
    return Promise.resolve(this.issue(client.client_id, known.scopes));
  }

  verifyAccessToken(token: string): Promise<AuthInfo> {
    const issued = this.access.get(token);
    if (!issued || issued.expiresAt < Date.now()) throw new InvalidTokenError("expired or unknown token");
    const expiresAt = Math.floor(issued.expiresAt / 1000);
    return Promise.resolve({ token, clientId: issued.clientId, scopes: issued.scopes, expiresAt });
  }

  /** Every access token issued so far is expired from now on; refresh tokens still work. */
  expireAccessTokens(): void {
    for (const issued of this.access.values()) issued.expiresAt = 0;
  }

  /** Forgets every token and refresh token: the next request needs a new sign-in. */
  revokeAll(): void {
    this.access.clear();
    this.refresh.clear();
  }

  private issue(clientId: string, scopes: string[]): OAuthTokens {
    const accessToken = randomBytes(24).toString("hex");
    const refreshToken = randomBytes(24).toString("hex");
    this.access.set(accessToken, { clientId, scopes, expiresAt: Date.now() + this.tokenLifetimeMs });
    this.refresh.set(refreshToken, { clientId, scopes });
    this.log.secrets.push(accessToken, refreshToken);
    const expiresIn = Math.max(1, Math.round(this.tokenLifetimeMs / 1000));
    return { access_token: accessToken, token_type: "bearer", expires_in: expiresIn, refresh_token: refreshToken };
  }
}

export interface OAuthMcpServer {
  /** The protected MCP endpoint. */
  url: string;
  provider: TestAuthProvider;
  close(): Promise<void>;
}

/** Pipes one HTTP session to a fresh server-everything process over stdio. */
async function bridgeSession(
  sessions: Map<string, StreamableHTTPServerTransport>,
): Promise<StreamableHTTPServerTransport> {
  const upstream = new StdioClientTransport({
    command: process.execPath,
    args: [EVERYTHING_SERVER, "stdio"],
    env: getDefaultEnvironment(),
    stderr: "ignore",
  });
  const front = new StreamableHTTPServerTransport({
    sessionIdGenerator: randomUUID,
    onsessioninitialized: (id) => void sessions.set(id, front),
  });
  front.onmessage = (message) => void upstream.send(message).catch(() => undefined);
  upstream.onmessage = (message) => void front.send(message).catch(() => undefined);
  front.onclose = () => {
    if (front.sessionId) sessions.delete(front.sessionId);
    void upstream.close();
  };
  await upstream.start();
  await front.start();
  return front;
}

export async function startOAuthMcpServer(): Promise<OAuthMcpServer> {
  const provider = new TestAuthProvider();
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const app = express();
  const http = await new Promise<HttpServer>((resolve) => {
    const server = app.listen(0, "127.0.0.1", () => resolve(server));
  });
  const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const mcpUrl = new URL("/mcp", base);
  app.use(mcpAuthRouter({ provider, issuerUrl: new URL(base), resourceServerUrl: mcpUrl, scopesSupported: ["mcp"] }));
  const bearer = requireBearerAuth({
    verifier: provider,
    resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(mcpUrl),
  });
  app.all("/mcp", bearer, express.json(), (req, res) => {
    void (async () => {
      const id = req.headers["mcp-session-id"];
      const known = typeof id === "string" ? sessions.get(id) : undefined;
      if (typeof id === "string" && !known) return void res.status(404).send("session not found");
      const transport = known ?? (await bridgeSession(sessions));
      await transport.handleRequest(req, res, req.body);
    })().catch((error: unknown) => {
      if (!res.headersSent) res.status(500).send(String(error));
    });
  });
  return {
    url: mcpUrl.href,
    provider,
    async close() {
      await Promise.all([...sessions.values()].map((session) => session.close().catch(() => undefined)));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
