import { createNodeFetch, type NodeFetch } from "@x/brain-kit";
import OpenAI from "openai";

export interface ClientSettings {
  baseUrl: string;
  apiKey: string | undefined;
  headers: Record<string, string> | undefined;
  fetch: typeof globalThis.fetch | undefined;
}

/**
 * One SDK client per base URL + key, reused across calls (keeps connection pools warm). Retries are
 * off — the runner owns retry policy — and the SDK's own logging is silenced so nothing it prints
 * can carry request data. The ambient-environment defaults the SDK would read (admin key, org,
 * project) are pinned, so a call goes exactly where the model says with exactly our key; the SDK
 * still adds `OPENAI_CUSTOM_HEADERS` (no option turns that off), so the brain scrubs those too.
 */
export class ClientCache {
  private readonly clients = new Map<string, OpenAI>();
  /**
   * What carries the SDK's requests unless the caller gave a `fetch`: node:http with keep-alive,
   * whose streamed bodies the brains read directly (see `sseJson`).
   */
  readonly transport: NodeFetch = createNodeFetch();

  get(settings: ClientSettings): OpenAI {
    const key = `${settings.baseUrl}\u0000${settings.apiKey ?? ""}`;
    let client = this.clients.get(key);
    if (!client) {
      client = new OpenAI({
        baseURL: settings.baseUrl,
        // A keyless local gateway (vLLM, Ollama) gets no Authorization header at all.
        apiKey: settings.apiKey ?? "unused",
        defaultHeaders: settings.apiKey ? settings.headers : { ...settings.headers, Authorization: null },
        adminAPIKey: null,
        organization: null,
        project: null,
        webhookSecret: null,
        maxRetries: 0,
        logLevel: "off",
        fetch: settings.fetch ?? this.transport.fetch,
      });
      this.clients.set(key, client);
    }
    return client;
  }
}
