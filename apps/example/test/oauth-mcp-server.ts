// An MCP server on 127.0.0.1 behind a real OAuth 2.1 flow, built from the official SDK's pieces:
// its authorization-server router (metadata, dynamic registration, PKCE-checked authorize and token
// endpoints), its bearer middleware, and an McpServer with one tool over streamable HTTP. The person
// approves at once: `/authorize` redirects straight back with the code.
import { randomBytes, randomUUID } from "node:crypto";
import type { Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { OAuthRegisteredClientsStore } from "@modelcontextprotocol/sdk/server/auth/clients.js";
import { InvalidGrantError, InvalidTokenError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import { requireBearerAuth } from "@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js";
import type { AuthorizationParams, OAuthServerProvider } from "@modelcontextprotocol/sdk/server/auth/provider.js";
import { getOAuthProtectedResourceMetadataUrl, mcpAuthRouter } from "@modelcontextprotocol/sdk/server/auth/router.js";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { OAuthClientInformationFull, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import express, { type Response } from "express";

/** What the authorization server did, for a test to read. */
export interface OAuthLog {
  registrations: number;
  codeGrants: number;
  /** The redirect URIs sign-ins were sent back to. */
  redirects: string[];
  /** Every access token, refresh token and client secret it issued. */
  secrets: string[];
}

class ApproveAtOnce implements OAuthServerProvider {
  readonly log: OAuthLog = { registrations: 0, codeGrants: 0, redirects: [], secrets: [] };
  private readonly clients = new Map<string, OAuthClientInformationFull>();
  private readonly codes = new Map<string, { clientId: string; challenge: string; scopes: string[] }>();
  private readonly access = new Map<string, { clientId: string; scopes: string[] }>();

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

  authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: Response): Promise<void> {
    const code = randomBytes(16).toString("hex");
    this.codes.set(code, { clientId: client.client_id, challenge: params.codeChallenge, scopes: params.scopes ?? [] });
    const target = new URL(params.redirectUri);
    target.searchParams.set("code", code);
    if (params.state !== undefined) target.searchParams.set("state", params.state);
    this.log.redirects.push(params.redirectUri);
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
    const accessToken = randomBytes(24).toString("hex");
    const refreshToken = randomBytes(24).toString("hex");
    this.access.set(accessToken, { clientId: client.client_id, scopes: grant.scopes });
    this.log.secrets.push(accessToken, refreshToken);
    return Promise.resolve({
      access_token: accessToken,
      token_type: "bearer",
      expires_in: 600,
      refresh_token: refreshToken,
    });
  }

  exchangeRefreshToken(): Promise<OAuthTokens> {
    throw new InvalidGrantError("this test server issues no refreshed tokens");
  }

  verifyAccessToken(token: string): Promise<AuthInfo> {
    const issued = this.access.get(token);
    if (!issued) throw new InvalidTokenError("unknown token");
    return Promise.resolve({ token, ...issued, expiresAt: Math.floor(Date.now() / 1000) + 600 });
  }
}

export interface OAuthMcpServer {
  /** The protected MCP endpoint. */
  url: string;
  log: OAuthLog;
  close(): Promise<void>;
}

export async function startOAuthMcpServer(): Promise<OAuthMcpServer> {
  const provider = new ApproveAtOnce();
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
  // Stateless: a new server and transport per request, as the SDK's stateless example does.
  app.post("/mcp", bearer, express.json(), (req, res) => {
    void (async () => {
      const server = new McpServer({ name: "secure", version: "1.0.0" });
      server.registerTool("whoami", { description: "Says the caller is signed in." }, () => ({
        content: [{ type: "text", text: "signed in" }],
      }));
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      res.on("close", () => void transport.close().then(() => server.close()));
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
    })();
  });
  return {
    url: mcpUrl.href,
    log: provider.log,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
