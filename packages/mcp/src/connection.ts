import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CallToolResultSchema,
  ErrorCode,
  McpError as SdkError,
  ToolListChangedNotificationSchema,
  type CallToolResult,
  type Tool as McpTool,
} from "@modelcontextprotocol/sdk/types.js";
import { MAX_TIMER_MS, describeError } from "@x/llm-types";
import type { ToolProgress } from "@x/runner";
import { McpCallError, McpError } from "./errors";
import type { ResolvedServerConfig } from "./server-config";
import { createTransport } from "./transport";

/** The largest timer Node keeps: the SDK's own deadline is pushed out of the way of the runner's. */
const NO_DEADLINE_MS = MAX_TIMER_MS;
const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
/** Pages of `tools/list` read before a server is judged to be paging forever. */
const MAX_TOOL_PAGES = 100;

const CLIENT_INFO = { name: "@x/mcp", version: "0.1.0" };

export interface CallOptions {
  signal: AbortSignal;
  onProgress: (update: ToolProgress) => void;
}

/**
 * One server, connected once and shared by every run that uses its tools. A dropped connection
 * (a crashed stdio server, an HTTP session the server forgot) is noticed and the next call
 * connects again; calls that were in flight end as `server_disconnected`.
 */
export class McpConnection {
  private client: Client | undefined;
  private connecting: Promise<Client> | undefined;
  private listed: McpTool[] = [];
  private closed = false;
  private readonly listeners = new Set<(tools: readonly McpTool[]) => void>();

  constructor(readonly config: ResolvedServerConfig) {}

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

  /** Connects (if not connected) and lists the tools. Throws `McpError` `connect_failed`. */
  async connect(): Promise<void> {
    await this.ready();
  }

  async call(tool: string, args: unknown, options: CallOptions): Promise<CallToolResult> {
    let client: Client;
    try {
      client = await this.ready();
    } catch (error) {
      throw new McpCallError(
        "server_disconnected",
        `server "${this.name}" could not be reached: ${(error as Error).message}`,
      );
    }
    try {
      return await this.send(client, tool, args, options);
    } catch (error) {
      // A session the server no longer knows was never run there: connect anew and send it once more.
      if (!(error instanceof StreamableHTTPError && error.code === 404) || options.signal.aborted)
        throw callError(error, this.name, options.signal);
      this.drop(client);
      try {
        return await this.send(await this.ready(), tool, args, options);
      } catch (retry) {
        throw callError(retry, this.name, options.signal);
      }
    }
  }

  /** Ends the session and, for a stdio server, its process. Later calls fail `server_disconnected`. */
  async close(): Promise<void> {
    this.closed = true;
    const client = this.client ?? (await this.connecting?.catch(() => undefined));
    this.client = undefined;
    this.connecting = undefined;
    if (!client) return;
    const transport = client.transport as { terminateSession?: () => Promise<void> } | undefined;
    // A streamable HTTP server is told the session is over, so it frees it now rather than at its timeout.
    await transport?.terminateSession?.().catch(() => undefined);
    await client.close().catch(() => undefined);
  }

  private async send(client: Client, tool: string, args: unknown, options: CallOptions): Promise<CallToolResult> {
    const timeout = this.config.callTimeoutMs ?? NO_DEADLINE_MS;
    const result = await client.callTool(
      { name: tool, arguments: args as Record<string, unknown> },
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

  private async open(): Promise<Client> {
    const client = new Client(CLIENT_INFO, { capabilities: {} });
    const timeout = this.config.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    try {
      await client.connect(createTransport(this.config.transport), { timeout });
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        void this.relist(client).catch(() => undefined);
      });
      this.listed = await listAll(client, timeout);
    } catch (error) {
      await client.close().catch(() => undefined);
      throw new McpError("connect_failed", `server "${this.name}": ${(error as Error).message}`, this.name);
    }
    // Set only after listing, so a close during the list is the connection's end, not a drop.
    client.onclose = () => this.drop(client);
    if (this.closed) {
      await client.close().catch(() => undefined);
      throw new McpError("closed", `server "${this.name}" was closed`, this.name);
    }
    this.client = client;
    this.announce();
    return client;
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

function callError(error: unknown, server: string, signal: AbortSignal): McpCallError {
  if (error instanceof McpCallError) return error;
  if (signal.aborted) return new McpCallError("aborted", `the call to server "${server}" was cancelled`);
  if (error instanceof SdkError) {
    if (error.code === (ErrorCode.ConnectionClosed as number))
      return new McpCallError("server_disconnected", `server "${server}" went away during the call`, error.code);
    if (error.code === (ErrorCode.RequestTimeout as number))
      return new McpCallError("timeout", `server "${server}" did not answer in time`, error.code);
    return new McpCallError("server_error", `server "${server}": ${error.message}`, error.code);
  }
  const message = describeError(error);
  // Anything else is the transport failing to deliver (a refused socket, a closed pipe).
  return new McpCallError("server_disconnected", `server "${server}" could not be reached: ${message}`);
}
