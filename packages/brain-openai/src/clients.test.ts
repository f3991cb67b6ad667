import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { APIConnectionError, APIUserAbortError, RateLimitError } from "openai";
import { VERSION } from "openai/version";
import { afterEach, describe, expect, it } from "vitest";
import { ClientCache, type ClientSettings } from "./clients";
import { sseJson } from "./sse-stream";

interface Seen {
  method: string | undefined;
  url: string | undefined;
  headers: IncomingHttpHeaders;
  body: string;
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A loopback server that records every request and answers with `reply`. */
async function serve(reply: { status: number; headers?: Record<string, string>; body: string }) {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (piece: string) => (body += piece));
    req.on("end", () => {
      seen.push({ method: req.method, url: req.url, headers: req.headers, body });
      res.writeHead(reply.status, { "content-type": "text/event-stream", ...reply.headers }).end(reply.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  return { seen, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` };
}

/** Streams one call and returns its events' JSON, or throws what the call threw. */
async function call(
  settings: ClientSettings & { baseUrl: string },
  headers?: Record<string, string>,
  signal?: AbortSignal,
) {
  const items: unknown[] = [];
  const body = { model: "m", stream: true, messages: [{ role: "user", content: "hi" }] };
  const cache = new ClientCache(settings);
  await cache.stream(
    settings.baseUrl,
    "/chat/completions",
    body,
    headers,
    signal ?? new AbortController().signal,
    (h) => sseJson((item) => (items.push(item), true), h),
  );
  return items;
}

/** What the SDK decides about a request: every header but those the carrying `fetch` adds itself. */
function sdkHeaders(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const own = new Set(["host", "connection", "content-length", "accept-encoding", "accept-language", "sec-fetch-mode"]);
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !own.has(name)));
}

const STREAM = 'data: {"id":"a","choices":[]}\n\ndata: [DONE]\n\n';

describe("ClientCache.stream", () => {
  it("sends, on its own transport, the very request the SDK sends through a fetch: URL, headers and body", async () => {
    const { seen, baseUrl } = await serve({ status: 200, body: STREAM });
    process.env.OPENAI_CUSTOM_HEADERS = "X-Gateway-Team: search";
    try {
      const settings = { baseUrl, apiKey: "sk-test-123456", headers: { "X-Brain": "b" }, fetch: undefined };
      const perCall = { "X-Call": "c", "x-brain": "from-the-call" };
      expect(await call(settings, perCall)).toEqual([{ id: "a", choices: [] }]);
      expect(await call({ ...settings, baseUrl: `${baseUrl}/`, fetch: globalThis.fetch }, perCall)).toEqual([
        { id: "a", choices: [] },
      ]);
    } finally {
      delete process.env.OPENAI_CUSTOM_HEADERS;
    }
    const [direct, viaSdk] = seen;
    expect(direct!.url).toBe("/v1/chat/completions");
    expect(direct!.url).toBe(viaSdk!.url);
    expect(direct!.method).toBe("POST");
    expect(direct!.body).toBe(viaSdk!.body);
    expect(sdkHeaders(direct!.headers)).toEqual(sdkHeaders(viaSdk!.headers));
    expect(direct!.headers).toMatchObject({
      authorization: "Bearer sk-test-123456",
      "x-gateway-team": "search",
      "x-call": "c",
      "x-brain": "from-the-call",
      "content-type": "application/json",
      "user-agent": `OpenAI/JS ${VERSION}`,
      "x-stainless-retry-count": "0",
    });
    expect(Number(direct!.headers["content-length"])).toBe(Buffer.byteLength(direct!.body));
  });

  it("a keyless gateway gets no Authorization header on either path", async () => {
    const { seen, baseUrl } = await serve({ status: 200, body: STREAM });
    await call({ baseUrl, apiKey: undefined, headers: undefined, fetch: undefined });
    expect(seen[0]!.headers).not.toHaveProperty("authorization");
  });

  it("a non-2xx answer throws the SDK's typed error with its status, body and headers", async () => {
    const { baseUrl } = await serve({
      status: 429,
      headers: { "content-type": "application/json", "retry-after": "7", "x-request-id": "req_1" },
      body: JSON.stringify({ error: { message: "slow down", type: "rate_limit_exceeded", code: "rate_limit" } }),
    });
    const error: unknown = await call({
      baseUrl,
      apiKey: "k",
      headers: undefined,
      fetch: undefined,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    const rate = error as RateLimitError;
    expect(rate.message).toBe("429 slow down");
    expect(rate.code).toBe("rate_limit");
    expect(rate.requestID).toBe("req_1");
    expect(rate.headers.get("retry-after")).toBe("7");
  });

  it("a refused connection is the SDK's APIConnectionError; an aborted call its APIUserAbortError", async () => {
    const { baseUrl } = await serve({ status: 200, body: STREAM });
    await closers.pop()!();
    const settings = { baseUrl, apiKey: "k", headers: undefined, fetch: undefined };
    await expect(call(settings)).rejects.toBeInstanceOf(APIConnectionError);
    const aborted = new AbortController();
    aborted.abort();
    await expect(call(settings, undefined, aborted.signal)).rejects.toBeInstanceOf(APIUserAbortError);
  });
});
