import type { Readable } from "node:stream";
import { headersOf, readText, type NodeFetch } from "./node-fetch";

/** The part of a Stainless-generated SDK client (`openai`, `@anthropic-ai/sdk`) that builds a request unsent. */
export interface RequestBuilder {
  buildRequest(options: {
    method: "post";
    path: string;
    body: Record<string, never>;
    maxRetries: number;
  }): Promise<{ req: { headers?: ConstructorParameters<typeof Headers>[0] }; url: string }>;
}

/** How the SDK raises what went wrong, so a direct call throws exactly what the SDK's own call would. */
export interface SdkErrors {
  /** A non-2xx answer, as the SDK's `APIError.generate(status, json, message, headers)` makes it. */
  status(status: number, json: unknown, message: string | undefined, headers: Headers): Error;
  /** The caller's signal aborted the request (`APIUserAbortError`). */
  aborted(): Error;
  /** The connection failed before any answer (`APIConnectionError`). */
  connection(cause: unknown): Error;
}

/** A 2xx answer to a direct call: its body stream, and its headers when something needs them. */
export interface DirectResponse {
  body: Readable;
  /** Built on demand: most calls never read them. */
  readonly headers: () => Headers;
}

interface Template {
  url: string;
  /** Lower-case names. */
  headers: Record<string, string>;
}

/**
 * The requests one SDK client sends, without the SDK's per-call machinery. For each path the SDK
 * builds the request once — its URL, auth, platform and custom headers, by its own rules — and
 * every call after sends that with its own body and per-call headers (which win, as in the SDK)
 * on the brain's `node:http` transport; a non-2xx answer or a failed connection throws the SDK's
 * typed error, built as the SDK builds it. What this spares each call — the SDK's header merging,
 * its request logging, its own abort controller and timer, and a web `Response` with its `Headers`
 * — was a fifth of a streamed turn's client CPU. Only for a client whose request does not change
 * from call to call: a string key, no per-request auth provider, retries off.
 */
export class DirectRoutes {
  private readonly templates = new Map<string, Promise<Template>>();

  constructor(
    private readonly client: RequestBuilder,
    private readonly transport: NodeFetch,
    private readonly errors: SdkErrors,
  ) {}

  /** POSTs `body` (JSON) to `path` under `signal`; resolves with the 2xx answer. */
  async post(
    path: string,
    body: unknown,
    callHeaders: Record<string, string> | undefined,
    signal: AbortSignal,
  ): Promise<DirectResponse> {
    const template = await this.template(path);
    let headers = template.headers;
    if (callHeaders) {
      headers = { ...headers };
      for (const name in callHeaders) headers[name.toLowerCase()] = callHeaders[name]!;
    }
    let res;
    try {
      res = await this.transport.request(template.url, { method: "POST", headers, body: JSON.stringify(body), signal });
    } catch (error) {
      throw signal.aborted ? this.errors.aborted() : this.errors.connection(error);
    }
    const raw = res.rawHeaders;
    if (res.status >= 200 && res.status < 300) return { body: res.body, headers: () => headersOf(raw) };
    const text = await readText(res.body).catch((error: unknown) => String(error));
    const json = safeJson(text);
    throw this.errors.status(res.status, json, json ? undefined : text, headersOf(raw));
  }

  private template(path: string): Promise<Template> {
    let template = this.templates.get(path);
    if (!template) {
      template = this.build(path);
      // A failed build (a bad base URL) is not kept: the next call asks the SDK again.
      template.catch(() => this.templates.delete(path));
      this.templates.set(path, template);
    }
    return template;
  }

  private async build(path: string): Promise<Template> {
    const { req, url } = await this.client.buildRequest({ method: "post", path, body: {}, maxRetries: 0 });
    const headers: Record<string, string> = {};
    new Headers(req.headers).forEach((value, name) => (headers[name] = value));
    // The transport counts each call's own body.
    delete headers["content-length"];
    return { url, headers };
  }
}

/** An error body's JSON as the SDKs' `safeJSON` reads it: undefined when not JSON (its text is the message then). */
function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
