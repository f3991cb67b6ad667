import { randomBytes } from "node:crypto";
import { createPrivateKeyJwtAuth } from "@modelcontextprotocol/sdk/client/auth-extensions.js";
import type { OAuthClientProvider, OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import type { ResolvedAuth } from "./auth-config";
import { McpError } from "./errors";
import type { SecretSet } from "./redact";
import type { McpAuthRecord } from "./token-store";

const DEFAULT_CLIENT_NAME = "@x/mcp";
const DEFAULT_SIGNING_ALGORITHM = "ES256";

/**
 * The SDK's `OAuthClientProvider` over the host's token store, for one server. The SDK does the
 * OAuth; this only keeps what it hands over, lets a person sign in through the host's
 * `authorize`, and remembers every secret it sees so they can be redacted.
 */
export class StoreOAuthProvider implements OAuthClientProvider {
  private record: McpAuthRecord | undefined;
  private verifier: string | undefined;
  private expectedState: string | undefined;
  private code: string | undefined;
  readonly addClientAuthentication: OAuthClientProvider["addClientAuthentication"];

  constructor(
    private readonly server: string,
    private readonly serverUrl: string,
    private readonly auth: ResolvedAuth,
    private readonly secrets: SecretSet,
    private readonly signal: () => AbortSignal,
  ) {
    secrets.add(auth.clientSecret);
    if (auth.privateKey !== undefined && auth.clientId !== undefined) {
      this.addClientAuthentication = createPrivateKeyJwtAuth({
        issuer: auth.clientId,
        subject: auth.clientId,
        privateKey: auth.privateKey,
        alg: auth.signingAlgorithm ?? DEFAULT_SIGNING_ALGORITHM,
      });
    }
  }

  private get interactive(): boolean {
    return (this.auth.grant ?? "authorization_code") === "authorization_code";
  }

  get redirectUrl(): string | undefined {
    return this.interactive ? this.auth.redirectUrl : undefined;
  }

  get clientMetadataUrl(): string | undefined {
    return this.auth.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    const method = this.auth.tokenEndpointAuthMethod ?? (this.auth.privateKey ? "private_key_jwt" : undefined);
    return {
      client_name: this.auth.clientName ?? DEFAULT_CLIENT_NAME,
      redirect_uris: this.redirectUrl !== undefined ? [this.redirectUrl] : [],
      grant_types: this.interactive ? ["authorization_code", "refresh_token"] : ["client_credentials"],
      response_types: this.interactive ? ["code"] : [],
      ...(method !== undefined ? { token_endpoint_auth_method: method } : {}),
      ...(this.auth.scope !== undefined ? { scope: this.auth.scope } : {}),
    };
  }

  state(): string {
    this.expectedState = randomBytes(24).toString("base64url");
    return this.expectedState;
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    const stored = (await this.load()).clientInformation as OAuthClientInformationMixed | undefined;
    const { clientId, clientSecret, clientIssuer } = this.auth;
    if (clientId === undefined || stored?.client_id === clientId) return stored;
    return {
      client_id: clientId,
      ...(clientSecret !== undefined ? { client_secret: clientSecret } : {}),
      ...(clientIssuer !== undefined ? { issuer: clientIssuer } : {}),
    };
  }

  async saveClientInformation(information: OAuthClientInformationMixed): Promise<void> {
    this.secrets.add(information.client_secret);
    await this.update({ clientInformation: information });
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    return (await this.load()).tokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    this.secrets.add(tokens.access_token, tokens.refresh_token, tokens.id_token);
    await this.update({ tokens });
  }

  /** A person signs in through the host; without a way to ask one, the server needs a login first. */
  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    if (!this.auth.authorize)
      throw new McpError("auth_required", `server "${this.server}" needs a person to sign in first`, this.server);
    const callback = new URL(await this.auth.authorize(authorizationUrl, this.signal()));
    const error = callback.searchParams.get("error");
    if (error !== null) throw new McpError("auth_failed", `server "${this.server}": sign-in refused (${error})`);
    if (callback.searchParams.get("state") !== this.expectedState)
      throw new McpError("auth_failed", `server "${this.server}": the sign-in came back with another state`);
    const code = callback.searchParams.get("code");
    if (code === null) throw new McpError("auth_failed", `server "${this.server}": the sign-in came back with no code`);
    this.code = code;
  }

  /** The authorization code a person's sign-in produced, once. */
  takeCode(): string | undefined {
    const code = this.code;
    this.code = undefined;
    return code;
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    if (this.verifier === undefined) throw new McpError("auth_failed", "no sign-in is under way");
    return this.verifier;
  }

  prepareTokenRequest(scope?: string): URLSearchParams | undefined {
    if (this.interactive) return undefined;
    const params = new URLSearchParams({ grant_type: "client_credentials" });
    if (scope) params.set("scope", scope);
    return params;
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    await this.update({ discoveryState: { ...state } });
  }

  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    return (await this.load()).discoveryState;
  }

  async invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): Promise<void> {
    const record = { ...(await this.load()) };
    if (scope === "all" || scope === "tokens") delete record.tokens;
    if (scope === "all" || scope === "client") delete record.clientInformation;
    if (scope === "all" || scope === "discovery") delete record.discoveryState;
    if (scope === "all" || scope === "verifier") this.verifier = undefined;
    this.record = record;
    await this.auth.store.save(this.serverUrl, record);
  }

  private async load(): Promise<McpAuthRecord> {
    if (this.record === undefined) {
      this.record = (await this.auth.store.load(this.serverUrl)) ?? {};
      const { tokens, clientInformation } = this.record;
      this.secrets.add(tokens?.access_token, clientInformation?.client_secret as string | undefined);
      this.secrets.add(tokens?.refresh_token as string | undefined);
    }
    return this.record;
  }

  private async update(change: Partial<McpAuthRecord>): Promise<void> {
    this.record = { ...(await this.load()), ...change };
    await this.auth.store.save(this.serverUrl, this.record);
  }
}
