import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type RequestOptions } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import type { Socket } from "node:net";
import type { Readable } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";

/**
 * Idle keep-alive sockets close after this long when the server does not say how long it keeps
 * them (undici's default too), so a reused socket is rarely one the server has just dropped.
 */
const IDLE_SOCKET_MS = 4_000;
/**
 * When the server does say (`Keep-Alive: timeout=N`), a socket idles until this long before its
 * N seconds end, at most {@link MAX_IDLE_SOCKET_MS}; as undici does, so the SDKs' own transport
 * and this one reuse a connection alike.
 */
const IDLE_SOCKET_MARGIN_MS = 2_000;
const MAX_IDLE_SOCKET_MS = 600_000;
/** Redirects followed for one call, as `fetch` does. */
const MAX_REDIRECTS = 20;
/** URLs whose {@link Target} a transport keeps; a process talks to a handful, the bound guards against misuse. */
const MAX_TARGETS = 256;

/** A request's URL read into what `node:http` takes, so it is parsed once, not per request. */
interface Target {
  url: URL;
  https: boolean;
  options: { hostname: string; port: string | undefined; path: string };
  /** The `host` header `node:http` would send (the port only when it is not the scheme's default). */
  host: string;
}

function toTarget(url: URL): Target {
  const https = url.protocol === "https:";
  if (!https && url.protocol !== "http:") throw new TypeError(`node fetch: unsupported protocol ${url.protocol}`);
  // As `fetch` refuses them: credentials belong in headers, where the redirect rule can drop them.
  if (url.username || url.password) throw new TypeError("node fetch: a URL with credentials is refused");
  const hostname = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  return {
    url,
    https,
    options: { hostname, port: url.port || undefined, path: url.pathname + url.search },
    host: url.host,
  };
}

/**
 * The request's headers as the flat name/value list `node:http` takes without re-reading each one
 * through `setHeader`: names in lower case, the `host` header first (node's own unless the caller set
 * one), and the body's own length (a `content-length` a caller set could disagree with it).
 */
function headerList(target: Target, headers: Record<string, string>, body: string | Uint8Array | undefined): string[] {
  const list: string[] = ["host", target.host];
  for (const name in headers) {
    const lower = name.toLowerCase();
    if (lower === "host") list[1] = headers[name]!;
    else if (lower !== "content-length") list.push(lower, headers[name]!);
  }
  if (body !== undefined) list.push("content-length", String(byteLength(body)));
  return list;
}

/** `headers` without the credentials a redirect to another origin must not carry. */
function withoutAuthorization(headers: Record<string, string>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name in headers) if (name.toLowerCase() !== "authorization") kept[name] = headers[name]!;
  return kept;
}

/**
 * Bytes each kept-alive socket had taken when it went back to the pool: a request on a reused
 * socket wrote nothing of itself while the socket's count still equals this.
 */
const writtenWhenFreed = new WeakMap<Socket, number>();

/** How long each socket may idle, from the `Keep-Alive` header of the last response on it. */
const idleAllowed = new WeakMap<Socket, number>();

/**
 * How long a socket whose response carried `hint` (its `Keep-Alive` header) may idle in the pool:
 * the server's timeout less a margin, capped; {@link IDLE_SOCKET_MS} when it names none; zero or
 * less when it is too short to reuse the socket safely.
 */
export function idleSocketMs(hint: string | undefined): number {
  const seconds = hint === undefined ? undefined : /(?:^|[\s,])timeout=(\d+)/i.exec(hint)?.[1];
  if (seconds === undefined) return IDLE_SOCKET_MS;
  return Math.min(Number(seconds) * 1_000 - IDLE_SOCKET_MARGIN_MS, MAX_IDLE_SOCKET_MS);
}

/**
 * A keep-alive agent whose idle sockets time out as the server's `Keep-Alive` header allows, and
 * whose reused sockets wait as long as a call needs.
 */
function keepAlive<A extends HttpAgent>(Base: new (options: { keepAlive: boolean }) => A): A {
  const agent = new Base({ keepAlive: true });
  const keep = agent.keepSocketAlive.bind(agent);
  const reuse = agent.reuseSocket.bind(agent);
  agent.keepSocketAlive = (socket: Socket) => {
    // Node returns whether it kept the socket (its types say void).
    const idle = idleAllowed.get(socket) ?? IDLE_SOCKET_MS;
    const kept = idle > 0 && (keep(socket) as unknown as boolean);
    if (kept) {
      socket.setTimeout(idle);
      writtenWhenFreed.set(socket, socket.bytesWritten);
    }
    return kept as unknown as void;
  };
  agent.reuseSocket = (socket: Socket, req) => {
    socket.setTimeout(0);
    reuse(socket, req);
  };
  return agent;
}

/**
 * A `fetch` for the providers' SDKs on `node:http`/`node:https` with keep-alive agents. The SDK
 * still builds every request (URL, auth, Azure, headers, body) and turns every non-2xx answer into
 * its typed error; this only moves the bytes. A 2xx response comes back without a web body: its
 * Node stream is read through {@link NodeFetch.body}, which spares each streamed call the web
 * stream and the SDK's byte-level SSE decoding (most of what a streamed call costs on the client).
 */
export interface NodeFetch {
  fetch: typeof globalThis.fetch;
  /** The Node stream of a 2xx response this fetch returned (undefined for any other response). */
  body(response: Response): Readable | undefined;
  /**
   * The same transport without the web `Response`: redirects followed as `fetch` follows them, the
   * body's `content-encoding` undone, the caller's signal ending the body too. For a brain that
   * sends a request its SDK built once (see `DirectRoutes`); rejects as `fetch` does.
   */
  request(url: string, init: NodeRequestInit): Promise<NodeResponse>;
}

/** What {@link NodeFetch.request} sends: header names in any case, a body already encoded. */
export interface NodeRequestInit {
  method: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
  signal?: AbortSignal;
}

/** What {@link NodeFetch.request} answers: the status, the raw header list and the decoded body. */
export interface NodeResponse {
  status: number;
  /** Names and values in turn, as they came (`IncomingMessage.rawHeaders`). */
  rawHeaders: string[];
  body: Readable;
}

export function createNodeFetch(): NodeFetch {
  const agents = { http: keepAlive(HttpAgent), https: keepAlive(HttpsAgent) };
  const bodies = new WeakMap<Response, Readable>();
  // A brain reads a streamed body from `body(response)` and lets the Response go. An SDK may unhook
  // the caller's signal from its own once that Response is collected (Anthropic's client does, with
  // a FinalizationRegistry on `response.body ?? response`): the caller's abort, deadline or stall
  // would no longer end the body. So the body, alive while it is read, keeps its Response alive.
  const owners = new WeakMap<Readable, Response>();

  const targets = new Map<string, Target>();

  async function fetchOnNode(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
    if (input instanceof Request) throw new TypeError("node fetch: pass a URL and init, not a Request");
    const signal = init.signal ?? undefined;
    const url = typeof input === "string" ? input : input.href;
    const res = await follow(
      targetOf(url),
      init.method ?? "GET",
      headerRecord(init.headers),
      requestBody(init.body),
      signal,
    );
    return respond(res, signal);
  }

  async function requestOnNode(url: string, init: NodeRequestInit): Promise<NodeResponse> {
    const res = await follow(targetOf(url), init.method, init.headers, init.body, init.signal);
    return { status: res.statusCode ?? 0, rawHeaders: res.rawHeaders, body: bodyOf(res, init.signal) };
  }

  /** Where `url` goes, read once: a brain sends to a handful of URLs, again and again. */
  function targetOf(url: string): Target {
    let target = targets.get(url);
    if (!target) {
      target = toTarget(new URL(url));
      if (targets.size >= MAX_TARGETS) targets.clear();
      targets.set(url, target);
    }
    return target;
  }

  /** Sends and follows 307/308 redirects; `headers` names in any case. */
  async function follow(
    target: Target,
    method: string,
    headers: Record<string, string>,
    body: string | Uint8Array | undefined,
    signal: AbortSignal | undefined,
  ): Promise<IncomingMessage> {
    for (let hop = 0; ; hop++) {
      const res = await send(target, method, headers, body, signal);
      const location = res.headers.location;
      if ((res.statusCode === 307 || res.statusCode === 308) && location && hop < MAX_REDIRECTS) {
        res.resume();
        const next = toTarget(new URL(location, target.url));
        // A redirect to another origin must not carry the credentials meant for this one.
        if (next.url.origin !== target.url.origin) headers = withoutAuthorization(headers);
        target = next;
        continue;
      }
      return res;
    }
  }

  function send(
    target: Target,
    method: string,
    headers: Record<string, string>,
    body: string | Uint8Array | undefined,
    signal: AbortSignal | undefined,
    retried = false,
  ): Promise<IncomingMessage> {
    return new Promise((resolve, reject) => {
      signal?.throwIfAborted();
      // Field by field: on Node 20 a property added after a spread costs a new hidden class per request.
      const options: RequestOptions = {
        hostname: target.options.hostname,
        port: target.options.port,
        path: target.options.path,
        method,
        headers: headerList(target, headers, body),
        agent: target.https ? agents.https : agents.http,
      };
      const req = (target.https ? httpsRequest : httpRequest)(options);
      const onAbort = () => req.destroy(abortReason(signal!));
      signal?.addEventListener("abort", onAbort, { once: true });
      req.once("response", (res) => {
        signal?.removeEventListener("abort", onAbort);
        idleAllowed.set(res.socket, idleSocketMs(res.headers["keep-alive"]?.toString()));
        resolve(res);
      });
      req.once("error", (error: NodeJS.ErrnoException) => {
        signal?.removeEventListener("abort", onAbort);
        if (signal?.aborted) {
          reject(abortReason(signal));
          return;
        }
        // A kept-alive socket the server closed as we reused it goes once more on a new socket
        // only when not one byte of this request was written to it: a request that went out may
        // have reached the server (and be billed), so it is reported, never resent unseen.
        if (!retried && error.code === "ECONNRESET" && wroteNothing(req.reusedSocket, req.socket)) {
          send(target, method, headers, body, signal, true).then(resolve, reject);
          return;
        }
        reject(new TypeError("fetch failed", { cause: error }));
      });
      req.end(body);
    });
  }

  async function respond(res: IncomingMessage, signal: AbortSignal | undefined): Promise<Response> {
    const status = res.statusCode ?? 0;
    const headers = headersOf(res.rawHeaders);
    const stream = bodyOf(res, signal);
    if (status >= 200 && status < 300) {
      const response = new Response(null, { status, statusText: res.statusMessage, headers });
      bodies.set(response, stream);
      owners.set(stream, response);
      return response;
    }
    // Anything else is read whole, for the SDK to turn into its typed error.
    const text = await readText(stream);
    const empty = status === 204 || status === 205 || status === 304;
    return new Response(empty ? null : text, { status, statusText: res.statusMessage, headers });
  }

  return { fetch: fetchOnNode, body: (response) => bodies.get(response), request: requestOnNode };
}

/**
 * True when `socket` was a reused kept-alive one and took no byte of the request now on it
 * (`bytesWritten` counts what was handed to the socket, sent or still queued).
 */
export function wroteNothing(reused: boolean, socket: Socket | null): boolean {
  if (!reused || !socket) return false;
  const before = writtenWhenFreed.get(socket);
  return before !== undefined && socket.bytesWritten === before;
}

/** The decoded body of `res`; the caller's signal also ends a body already being read, as with `fetch`. */
function bodyOf(res: IncomingMessage, signal: AbortSignal | undefined): Readable {
  const stream = decoded(res);
  if (signal) {
    const onAbort = () => stream.destroy(abortReason(signal));
    signal.addEventListener("abort", onAbort, { once: true });
    stream.once("close", () => signal.removeEventListener("abort", onAbort));
  }
  return stream;
}

/** A response's raw header list (names and values in turn) as a `Headers`. */
export function headersOf(raw: string[]): Headers {
  const headers = new Headers();
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  return headers;
}

/** The whole of a body, as text. */
export async function readText(stream: Readable): Promise<string> {
  stream.setEncoding("utf8");
  let text = "";
  for await (const piece of stream) text += String(piece);
  return text;
}

/** The response stream with a `content-encoding` undone (servers compress only when asked; some do anyway). */
function decoded(res: IncomingMessage): Readable {
  const encoding = res.headers["content-encoding"]?.trim().toLowerCase();
  const unzip =
    encoding === "gzip" || encoding === "x-gzip"
      ? createGunzip()
      : encoding === "deflate"
        ? createInflate()
        : encoding === "br"
          ? createBrotliDecompress()
          : undefined;
  if (!unzip) return res;
  res.on("error", (error) => unzip.destroy(error));
  return res.pipe(unzip);
}

function headerRecord(headers: RequestInit["headers"]): Record<string, string> {
  const out: Record<string, string> = {};
  // The SDKs pass a Headers; anything else a caller passes is read through one.
  (headers instanceof Headers ? headers : new Headers(headers)).forEach((value, name) => (out[name] = value));
  return out;
}

function requestBody(body: RequestInit["body"]): string | Uint8Array | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === "string" || body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  throw new TypeError("node fetch: only string and byte bodies are sent");
}

/** Why `signal` aborted, as `fetch` rejects with it: its reason, or an `AbortError`. */
function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new DOMException("This operation was aborted", "AbortError");
}

const byteLength = (body: string | Uint8Array) => (typeof body === "string" ? Buffer.byteLength(body) : body.length);
