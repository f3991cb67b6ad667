import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  CallToolResultSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  McpError as SdkError,
  ToolListChangedNotificationSchema,
  type CallToolResult,
  type Tool as McpTool,
} from "@modelcontextprotocol/sdk/types.js";
import { MAX_TIMER_MS, describeError } from "@x/llm-types";
import type { ToolProgress } from "@x/runner";
import { callError } from "./call-error";
import { answerElicitation, type ElicitationCall, type Elicitor } from "./elicitation";
import { McpCallError, McpError } from "./errors";
import { IDEMPOTENCY_KEY_META } from "./idempotency-key-meta";
import { StoreOAuthProvider } from "./oauth-provider";
import { reconnectDelay, sleep, MAX_RECONNECT_ATTEMPTS } from "./reconnect";
import { SecretSet } from "./redact";
import type { ResolvedServerConfig } from "./server-config";
import { canFinishAuth, createTransport } from "./transport";

/** The largest timer Node keeps: the SDK's own deadline is pushed out of the way of the runner's. */
const NO_DEADLINE_MS = MAX_TIMER_MS;
const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
/** Pages of `tools/list` read before a server is judged to be paging forever. */
const MAX_TOOL_PAGES = 100;
/** Sign-ins one connection attempt may go through (a login, then a step-up) before it gives up. */
const MAX_AUTH_ROUNDS = 2;

const CLIENT_INFO = { name: "@x/mcp", version: "0.1.0" };
// Elicitation is always declared: a server that asks gets a person's answer, or a decline — never silence.
// Sampling is never declared: a server's prompt would run outside the run's roles, budget and auto mode.
const ELICITATION = { form: { applyDefaults: true } };

export interface ConnectionOptions {
  elicit?: Elicitor;
}

export interface CallOptions {
  signal: AbortSignal;
  /** The call's key for this server (`mcpIdempotencyKey`), sent in its `_meta` under `IDEMPOTENCY_KEY_META`. */
  idempotencyKey: string;
  onProgress: (update: ToolProgress) => void;
  call?: ElicitationCall;
  /** The calling run's way to ask its person (`ctx.elicit`), used when the host gave no `elicit`. */
  elicit?: Elicitor;
}

/**
 * One server, connected once and shared by every run that uses its tools. A dropped connection
 * (a crashed stdio server, an HTTP session the server forgot, an SSE stream that failed, a proxy
 * answering 502) is noticed and the next call connects again, with bounded backoff; calls that
 * were in flight end as `server_disconnected`.
 */
export class McpConnection {
  private client: Client | undefined;
  private connecting: Promise<Client> | undefined;
  private listed: McpTool[] = [];
  private closed = false;
  private everConnected = false;
  private readonly listeners = new Set<(tools: readonly McpTool[]) => void>();
  private readonly running = new Map<symbol, Pick<CallOptions, "call" | "elicit">>();
  private readonly lifetime = new AbortController();
  /** Every secret this server's OAuth has seen: scrubbed from every message that leaves. */
  readonly secrets = new SecretSet();
  private readonly oauth: StoreOAuthProvider | undefined;

  constructor(
    readonly config: ResolvedServerConfig,
    private readonly options: ConnectionOptions = {},
  ) {
    const { transport } = config;
    if (transport.type !== "stdio" && transport.auth) {
      const key = new URL(transport.url).href;
      const signal = () => this.lifetime.signal;
      this.oauth = new StoreOAuthProvider(config.name, key, transport.auth, this.secrets, signal);
    }
  }

  get name(): string {
    return this.config.name;
  }

  /** The server's tools as last listed. */
  tools(): readonly McpTool[] {
    return this.listed;
  }

  /** Called after each relisting (`tools/list_changed`, or a reconnect). */
  onToolsChanged(listener: (tools: readonly McpTool[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Connects (if not connected) and lists the tools. Throws `McpError` (`connect_failed`, `auth_*`). */
  async connect(): Promise<void> {
    await this.ready();
  }

  async call(tool: string, args: unknown, options: CallOptions): Promise<CallToolResult> {
    const id = Symbol(tool);
    this.running.set(id, {
      ...(options.call ? { call: options.call } : {}),
      ...(options.elicit ? { elicit: options.elicit } : {}),
    });
    try {
      return await this.callOnce(tool, args, options);
    } finally {
      this.running.delete(id);
    }
  }

  /** Ends the session and, for a stdio server, its process. Later calls fail `server_disconnected`. */
  async close(): Promise<void> {
    this.closed = true;
    this.lifetime.abort();
    const client = this.client ?? (await this.connecting?.catch(() => undefined));
    this.client = undefined;
    this.connecting = undefined;
    if (!client) return;
    const transport = client.transport as { terminateSession?: () => Promise<void> } | undefined;
    // A streamable HTTP server is told the session is over, so it frees it now rather than at its timeout.
    await transport?.terminateSession?.().catch(() => undefined);
    await client.close().catch(() => undefined);
  }

  private async callOnce(tool: string, args: unknown, options: CallOptions): Promise<CallToolResult> {
    const fail = (error: unknown) => callError(error, this.name, options.signal, this.secrets);
    let client: Client;
    try {
      client = await this.ready();
    } catch (error) {
      throw error instanceof McpError && error.code !== "connect_failed"
        ? new McpCallError("unauthorized", error.message)
        : new McpCallError("server_disconnected", `server "${this.name}" could not be reached: ${errorText(error)}`);
    }
    try {
      return await this.send(client, tool, args, options);
    } catch (error) {
      if (options.signal.aborted) throw fail(error);
      // Refused before it ran — a session the server forgot, or credentials that need a sign-in:
      // the call is sent once more, on a new session or with the new token.
      if (isForgottenSession(error)) {
        this.drop(client);
        return await this.resend(() => this.ready(), tool, args, options);
      }
      if (error instanceof UnauthorizedError && (await this.finishAuthorization(client.transport).catch(() => false)))
        return await this.resend(() => Promise.resolve(client), tool, args, options);
      // Refused while another call renewed the token (the SDK then gives up on the rest): send it again.
      if (isRefusedCredentials(error)) return await this.resend(() => Promise.resolve(client), tool, args, options);
      // A transport that failed to deliver (a proxy's 502, a refused socket) is not trusted again.
      if (!(error instanceof SdkError)) this.drop(client);
      throw fail(error);
    }
  }

  private async resend(
    next: () => Promise<Client>,
    tool: string,
    args: unknown,
    options: CallOptions,
  ): Promise<CallToolResult> {
    try {
      return await this.send(await next(), tool, args, options);
    } catch (retry) {
      throw callError(retry, this.name, options.signal, this.secrets);
    }
  }

  private async send(client: Client, tool: string, args: unknown, options: CallOptions): Promise<CallToolResult> {
    const timeout = this.config.callTimeoutMs ?? NO_DEADLINE_MS;
    const result = await client.callTool(
      {
        name: tool,
        arguments: args as Record<string, unknown>,
        _meta: { [IDEMPOTENCY_KEY_META]: options.idempotencyKey },
      },
      CallToolResultSchema,
      {
        signal: options.signal,
        timeout,
        onprogress: (p) =>
          options.onProgress({
            progress: p.progress,
            ...(p.total !== undefined ? { total: p.total } : {}),
            ...(p.message !== undefined ? { message: p.message } : {}),
          }),
      },
    );
    return CallToolResultSchema.parse(result);
  }

  private ready(): Promise<Client> {
    if (this.closed) return Promise.reject(new McpError("closed", `server "${this.name}" was closed`, this.name));
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= this.open().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  /** Connects; a reconnect (never the first connect) is tried again with backoff while the server is away. */
  private async open(): Promise<Client> {
    const deadline = Date.now() + (this.config.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS);
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.openOnce();
      } catch (error) {
        const delay = reconnectDelay(attempt);
        const retry =
          this.everConnected &&
          !this.closed &&
          error instanceof McpError &&
          error.code === "connect_failed" &&
          attempt + 1 < MAX_RECONNECT_ATTEMPTS &&
          Date.now() + delay < deadline;
        if (!retry) throw error;
        await sleep(delay, this.lifetime.signal);
      }
    }
  }

  private async openOnce(): Promise<Client> {
    const timeout = this.config.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    for (let round = 0; ; round++) {
      const client = this.newClient();
      const transport = createTransport(this.config.transport, this.oauth);
      try {
        await client.connect(transport, { timeout });
        this.listed = await listAll(client, timeout);
      } catch (error) {
        const signedIn =
          error instanceof UnauthorizedError && round < MAX_AUTH_ROUNDS && (await this.finishAuthorization(transport));
        await client.close().catch(() => undefined);
        if (signedIn) continue;
        throw this.connectError(error);
      }
      return this.adopt(client);
    }
  }

  private async adopt(client: Client): Promise<Client> {
    // Set only after listing, so a close during the list is the connection's end, not a drop.
    client.onclose = () => this.drop(client);
    // The SDK's SSE transport reports a failed stream (a restarted server) on onerror and never
    // calls onclose; such a connection is dead, and the next call must connect again.
    if (this.config.transport.type === "sse") client.onerror = () => this.drop(client);
    if (this.closed) {
      await client.close().catch(() => undefined);
      throw new McpError("closed", `server "${this.name}" was closed`, this.name);
    }
    this.client = client;
    this.everConnected = true;
    this.announce();
    return client;
  }

  private newClient(): Client {
    const { roots } = this.config;
    const capabilities = { elicitation: ELICITATION, ...(roots ? { roots: { listChanged: false } } : {}) };
    const client = new Client(CLIENT_INFO, { capabilities });
    if (roots) client.setRequestHandler(ListRootsRequestSchema, () => ({ roots }));
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      void this.relist(client).catch(() => undefined);
    });
    client.setRequestHandler(ElicitRequestSchema, (request, extra) => {
      // A question is tied to a call only when exactly one is running: with two, it is not known whose it is.
      const calls = [...this.running.values()];
      const running = calls.length === 1 ? calls[0] : undefined;
      return answerElicitation(this.options.elicit ?? running?.elicit, request.params, {
        server: this.name,
        signal: extra.signal,
        ...(running?.call ? { call: running.call } : {}),
      });
    });
    return client;
  }

  /** Completes a person's sign-in on the transport that started it. False when none is pending. */
  private async finishAuthorization(transport: Transport | undefined): Promise<boolean> {
    const code = this.oauth?.takeCode();
    if (code === undefined || !canFinishAuth(transport)) return false;
    await transport.finishAuth(code);
    return true;
  }

  private connectError(error: unknown): McpError {
    const message = this.secrets.redact(`server "${this.name}": ${errorText(error)}`);
    if (error instanceof McpError) return new McpError(error.code, message, this.name);
    if (error instanceof UnauthorizedError) return new McpError("auth_required", message, this.name);
    return new McpError("connect_failed", message, this.name);
  }

  private async relist(client: Client): Promise<void> {
    const tools = await listAll(client, this.config.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS);
    if (this.client !== client) return;
    this.listed = tools;
    this.announce();
  }

  private drop(client: Client): void {
    if (this.client !== client) return;
    this.client = undefined;
    void client.close().catch(() => undefined);
  }

  private announce(): void {
    for (const listener of this.listeners) {
      try {
        listener(this.listed);
      } catch {
        // A host listener that throws changes nothing here.
      }
    }
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : describeError(error);
}

/** A streamable HTTP session the server no longer knows (it restarted): the request never ran. */
function isForgottenSession(error: unknown): boolean {
  return error instanceof StreamableHTTPError && error.code === 404;
}

/** A request refused for its credentials (401) after another request on the transport renewed them. */
function isRefusedCredentials(error: unknown): boolean {
  return error instanceof StreamableHTTPError && error.code === 401;
}

/** Every page of `tools/list`. */
async function listAll(client: Client, timeout: number): Promise<McpTool[]> {
  if (!client.getServerCapabilities()?.tools) return [];
  const tools: McpTool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_TOOL_PAGES; page++) {
    const result = await client.listTools(cursor !== undefined ? { cursor } : {}, { timeout });
    tools.push(...result.tools);
    cursor = result.nextCursor;
    if (cursor === undefined) return tools;
  }
  throw new Error(`tools/list still had more pages after ${MAX_TOOL_PAGES}`);
}
