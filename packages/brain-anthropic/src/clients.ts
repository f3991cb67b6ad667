import { createNodeFetch, type NodeFetch } from "@x/brain-kit";
import Anthropic from "@anthropic-ai/sdk";

export interface ClientSettings {
  baseUrl: string;
  apiKey: string;
  headers: Record<string, string> | undefined;
  fetch: typeof globalThis.fetch | undefined;
}

/**
 * One SDK client per base URL + key, reused across calls. Retries are off (the runner owns retry
 * policy), the SDK's logging and its own OpenTelemetry spans are off (nothing it emits can carry
 * request data), and the key is always passed explicitly so the SDK never goes looking for
 * credentials in the environment or on disk. It still adds `ANTHROPIC_CUSTOM_HEADERS` (no option
 * turns that off), so the brain scrubs those too.
 */
export class ClientCache {
  private readonly clients = new Map<string, Anthropic>();
  /**
   * What carries the SDK's requests unless the caller gave a `fetch`: node:http with keep-alive,
   * whose streamed bodies the brain reads directly (see `sseJson`).
   */
  readonly transport: NodeFetch = createNodeFetch();

  get(settings: ClientSettings): Anthropic {
    const key = `${settings.baseUrl}\u0000${settings.apiKey}`;
    let client = this.clients.get(key);
    if (!client) {
      client = new Anthropic({
        baseURL: settings.baseUrl,
        apiKey: settings.apiKey,
        defaultHeaders: settings.headers,
        maxRetries: 0,
        logLevel: "off",
        openTelemetry: false,
        fetch: settings.fetch ?? this.transport.fetch,
      });
      this.clients.set(key, client);
    }
    return client;
  }
}
