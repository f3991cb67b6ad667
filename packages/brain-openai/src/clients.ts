import {
  createNodeFetch,
  DirectRoutes,
  readSse,
  SseSplitter,
  type NodeFetch,
  type SseEventHandler,
} from "@x/brain-kit";
import type { BrainRequest, Model } from "@x/llm-types";
import OpenAI, {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  OpenAIError,
} from "openai";

/** What a brain's calls share whatever the model: its key, its own headers, a caller's `fetch`. */
export interface ClientSettings {
  apiKey: string | undefined;
  headers: Record<string, string> | undefined;
  fetch: typeof globalThis.fetch | undefined;
}

/** One cached SDK client and the direct routes built from its requests. */
interface Client {
  sdk: OpenAI;
  direct: DirectRoutes;
}

/** How the SDK raises a direct call's failures, exactly as its own `makeRequest` would. */
const SDK_ERRORS = {
  status: (status: number, json: unknown, message: string | undefined, headers: Headers) =>
    APIError.generate(status, json as object | undefined, message, headers),
  aborted: () => new APIUserAbortError(),
  connection: (cause: unknown) =>
    // The SDK's own test for a timed-out connection, by its text.
    /timed? ?out/i.test(`${String(cause)}${cause instanceof Error ? String(cause.cause) : ""}`)
      ? new APIConnectionTimeoutError()
      : new APIConnectionError({ cause: cause instanceof Error ? cause : undefined }),
};

/**
 * One SDK client per base URL, reused across calls (keeps connection pools warm). Retries are
 * off — the runner owns retry policy — and the SDK's own logging is silenced so nothing it prints
 * can carry request data. The ambient-environment defaults the SDK would read (admin key, org,
 * project) are pinned, so a call goes exactly where the model says with exactly our key; the SDK
 * still adds `OPENAI_CUSTOM_HEADERS` (no option turns that off), so the brain scrubs those too.
 */
export class ClientCache {
  private readonly clients = new Map<string, Client>();
  /** What carries the calls unless the caller gave a `fetch`: node:http with keep-alive. */
  private readonly transport: NodeFetch = createNodeFetch();

  constructor(private readonly settings: ClientSettings) {}

  /**
   * Sends one streamed call to `path` and hands each server-sent event to `onEvent` until the body
   * ends. Without a caller's `fetch` the request is the one the SDK builds for this client (its URL,
   * auth and headers, by its rules), sent straight on the brain's transport ({@link DirectRoutes});
   * with one, the SDK sends it through that `fetch`. Either way a failure is the SDK's typed error.
   */
  async stream(
    baseUrl: string,
    path: string,
    body: object,
    callHeaders: Record<string, string> | undefined,
    signal: AbortSignal,
    onEvent: (headers: () => Headers) => SseEventHandler,
  ): Promise<void> {
    const client = this.get(baseUrl);
    if (!this.settings.fetch) {
      const response = await client.direct.post(path, body, callHeaders, signal);
      return readSse(response.body, new SseSplitter(), onEvent(response.headers));
    }
    const response = await client.sdk
      .post(path, { body, signal, headers: callHeaders, maxRetries: 0, stream: true })
      .asResponse();
    if (!response.body) throw new OpenAIError("Attempted to iterate over a response with no body");
    return readSse(
      response.body,
      new SseSplitter(),
      onEvent(() => response.headers),
    );
  }

  private get(baseUrl: string): Client {
    const settings = this.settings;
    let client = this.clients.get(baseUrl);
    if (!client) {
      const sdk = new OpenAI({
        baseURL: baseUrl,
        // A keyless local gateway (vLLM, Ollama) gets no Authorization header at all.
        apiKey: settings.apiKey ?? "unused",
        defaultHeaders: settings.apiKey ? settings.headers : { ...settings.headers, Authorization: null },
        adminAPIKey: null,
        organization: null,
        project: null,
        webhookSecret: null,
        maxRetries: 0,
        logLevel: "off",
        // Without a caller's fetch the SDK only builds requests (DirectRoutes sends them).
        fetch: settings.fetch,
      });
      client = { sdk, direct: new DirectRoutes(sdk, this.transport, SDK_ERRORS) };
      this.clients.set(baseUrl, client);
    }
    return client;
  }
}

/** A call's own headers over the model's; undefined when neither has any (most calls). */
export function callHeaders(model: Model, request: BrainRequest): Record<string, string> | undefined {
  if (!model.headers && !request.headers) return undefined;
  return { ...model.headers, ...request.headers };
}
