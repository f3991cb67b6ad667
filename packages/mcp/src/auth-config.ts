import { z } from "zod/v4";
import type { McpTokenStore } from "./token-store";

/**
 * Shows a person the authorization server's page (prints the URL, opens a browser) and resolves
 * to the URL the authorization server sent them back to — the redirect with `code` and `state`.
 * The host owns the callback listener (on loopback, say); the state is checked here.
 */
export type McpAuthorize = (authorizationUrl: URL, signal: AbortSignal) => Promise<string | URL>;

export const OAUTH_GRANTS = ["authorization_code", "client_credentials"] as const;
export const TOKEN_ENDPOINT_AUTH_METHODS = [
  "none",
  "client_secret_basic",
  "client_secret_post",
  "private_key_jwt",
] as const;

const isStore = (value: unknown): value is McpTokenStore =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as McpTokenStore).load === "function" &&
  typeof (value as McpTokenStore).save === "function";

/**
 * OAuth for a remote server, carried out by the official SDK's client auth: protected-resource
 * and authorization-server discovery, dynamic client registration (or a pre-registered client, or
 * a client ID metadata document), PKCE, scopes from `WWW-Authenticate` and step-up, refresh, and
 * the resource indicator checked against the server's URL.
 */
export const McpAuthSchema = z
  .strictObject({
    /** Where tokens and the registered client are kept (`createFileTokenStore`, or the host's own). */
    store: z.custom<McpTokenStore>(isStore, "a token store has load and save"),
    /** `authorization_code` (default): a person signs in. `client_credentials`: machine to machine. */
    grant: z.enum(OAUTH_GRANTS).optional(),
    /** The redirect URI registered for the client (a loopback callback): required for `authorization_code`. */
    redirectUrl: z.url({ protocol: /^https?$/ }).optional(),
    /** Lets a person sign in when no stored token works. Without it such a server fails `auth_required`. */
    authorize: z.custom<McpAuthorize>((value) => typeof value === "function", "authorize is a function").optional(),
    /** A pre-registered client; without it the client registers itself (or uses `clientMetadataUrl`). */
    clientId: z.string().min(1).optional(),
    clientSecret: z.string().min(1).optional(),
    /** The authorization server a pre-registered client belongs to: its credentials go nowhere else. */
    clientIssuer: z.url().optional(),
    /** An HTTPS URL of this client's metadata document, used as its client ID where the server supports it. */
    clientMetadataUrl: z.url({ protocol: /^https$/ }).optional(),
    /** The name a person sees on the consent page. Default `@x/mcp`. */
    clientName: z.string().min(1).optional(),
    /** Scopes to ask for when neither the server's challenge nor its metadata names any. */
    scope: z.string().min(1).optional(),
    /** A PEM private key: the client proves itself with a signed JWT (`private_key_jwt`). */
    privateKey: z.string().min(1).optional(),
    /** The key's algorithm. Default `ES256`. */
    signingAlgorithm: z.string().min(1).optional(),
    tokenEndpointAuthMethod: z.enum(TOKEN_ENDPOINT_AUTH_METHODS).optional(),
  })
  .superRefine((auth, ctx) => {
    if ((auth.grant ?? "authorization_code") === "authorization_code" && auth.redirectUrl === undefined)
      ctx.addIssue({ code: "custom", path: ["redirectUrl"], message: "authorization_code needs a redirectUrl" });
    if (auth.grant === "client_credentials" && auth.clientId === undefined)
      ctx.addIssue({ code: "custom", path: ["clientId"], message: "client_credentials needs a clientId" });
  });
export type McpAuth = z.input<typeof McpAuthSchema>;
export type ResolvedAuth = z.output<typeof McpAuthSchema>;
