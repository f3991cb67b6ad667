import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { Socket, type AddressInfo } from "node:net";
import type { Readable } from "node:stream";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { createNodeFetch, idleSocketMs, wroteNothing } from "./node-fetch";

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

async function serve(handler: Handler): Promise<string> {
  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (piece: string) => (body += piece));
    req.on("end", () => handler(req, body, res));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function text(stream: Readable | undefined): Promise<string> {
  let out = "";
  for await (const piece of stream!) out += String(piece);
  return out;
}

describe("createNodeFetch", () => {
  it("sends method, headers and body; a 2xx body is the Node stream, on a kept-alive socket", async () => {
    const seen: { method?: string; auth?: string; length?: string; body: string; port: number }[] = [];
    const origin = await serve((req, body, res) => {
      seen.push({
        method: req.method,
        auth: req.headers.authorization,
        length: req.headers["content-length"],
        body,
        port: req.socket.remotePort!,
      });
      res.writeHead(200, { "content-type": "text/event-stream", "x-request-id": "req_1" });
      res.write("data: one\n\n");
      setTimeout(() => res.end("data: two\n\n"), 20);
    });
    const transport = createNodeFetch();
    for (let i = 0; i < 2; i++) {
      const response = await transport.fetch(`${origin}/v1/chat`, {
        method: "POST",
        headers: new Headers({ authorization: "Bearer k", "content-type": "application/json" }),
        body: '{"é":1}',
      });
      expect(response.status).toBe(200);
      expect(response.headers.get("x-request-id")).toBe("req_1");
      expect(response.body).toBeNull();
      expect(await text(transport.body(response))).toBe("data: one\n\ndata: two\n\n");
    }
    expect(seen.map(({ port: _port, ...rest }) => rest)).toEqual([
      { method: "POST", auth: "Bearer k", length: "8", body: '{"é":1}' },
      { method: "POST", auth: "Bearer k", length: "8", body: '{"é":1}' },
    ]);
    expect(seen[1]!.port, "the second call reuses the first one's socket").toBe(seen[0]!.port);
  });

  it("any other status comes back whole, with its headers, for the SDK's typed error", async () => {
    const origin = await serve((_req, _body, res) => {
      res.writeHead(429, { "retry-after": "3", "content-type": "application/json" });
      res.end('{"error":{"message":"slow down"}}');
    });
    const transport = createNodeFetch();
    const response = await transport.fetch(`${origin}/x`, { method: "POST", body: "{}" });
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("3");
    expect(await response.json()).toEqual({ error: { message: "slow down" } });
    expect(transport.body(response)).toBeUndefined();
  });

  it("a gzip-encoded body is decoded", async () => {
    const origin = await serve((_req, _body, res) => {
      res.writeHead(200, { "content-encoding": "gzip" });
      res.end(gzipSync("data: zipped\n\n"));
    });
    const transport = createNodeFetch();
    expect(await text(transport.body(await transport.fetch(origin)))).toBe("data: zipped\n\n");
  });

  it("follows a 307 with method and body, keeping the key on its origin and dropping it off it", async () => {
    const echo: Handler = (req, body, res) => res.end(`${req.method} ${body} ${req.headers.authorization}`);
    const elsewhere = await serve(echo);
    const origin = await serve((req, body, res) => {
      if (req.url === "/there") return echo(req, body, res);
      res.writeHead(307, { location: req.url === "/same" ? "/there" : `${elsewhere}/there` });
      res.end();
    });
    const transport = createNodeFetch();
    const call = async (path: string) =>
      text(
        transport.body(
          await transport.fetch(`${origin}${path}`, {
            method: "POST",
            headers: { authorization: "Bearer k" },
            body: "b",
          }),
        ),
      );
    expect(await call("/same")).toBe("POST b Bearer k");
    expect(await call("/other")).toBe("POST b undefined");
  });

  it("an abort before the answer rejects with the signal's reason; one mid-body ends the stream", async () => {
    const origin = await serve((req, _body, res) => {
      if (req.url === "/slow") return; // never answers
      res.writeHead(200);
      res.write("data: first\n\n");
    });
    const transport = createNodeFetch();
    const early = new AbortController();
    const pending = transport.fetch(`${origin}/slow`, { signal: early.signal });
    setTimeout(() => early.abort(), 20);
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });

    const late = new AbortController();
    const stream = transport.body(await transport.fetch(`${origin}/open`, { signal: late.signal }))!;
    const reading = text(stream);
    setTimeout(() => late.abort(), 20);
    await expect(reading).rejects.toMatchObject({ name: "AbortError" });
  });

  it("a reused socket reset after the server read the request is reported, not resent", async () => {
    const served = new WeakSet<object>();
    let seen = 0;
    const origin = await serve((req, _body, res) => {
      seen++;
      // The server reads the request, then resets the kept-alive socket it came on.
      if (served.has(req.socket)) return void req.socket.destroy();
      served.add(req.socket);
      res.end("ok");
    });
    const transport = createNodeFetch();
    expect(await text(transport.body(await transport.fetch(origin, { method: "POST", body: "{}" })))).toBe("ok");
    await expect(transport.fetch(origin, { method: "POST", body: "{}" })).rejects.toMatchObject({
      name: "TypeError",
      message: "fetch failed",
      cause: { code: "ECONNRESET" },
    });
    expect(seen, "two calls made, two requests on the wire, none resent unseen").toBe(2);
  });

  it("an idle socket stays as long as the server's Keep-Alive header allows, less a margin (as undici)", async () => {
    expect(["timeout=3600", "timeout=7, max=100", "max=100", "Timeout=30", "timeout=2"].map(idleSocketMs)).toEqual([
      600_000, 5_000, 4_000, 28_000, 0,
    ]);
    expect(idleSocketMs(undefined)).toBe(4_000);
    const ports: number[] = [];
    const origin = await serve((req, _body, res) => {
      ports.push(req.socket.remotePort!);
      // Set by hand, with `connection`, so node's server writes this hint and not its own.
      const hint = new URL(req.url!, "http://x").searchParams.get("hint");
      res.writeHead(200, { connection: "keep-alive", ...(hint ? { "keep-alive": hint } : {}) });
      res.end("ok");
    });
    const transport = createNodeFetch();
    /** The socket a call came back on, once the pool has taken it back (or closed it). */
    const idleSocket = async (hint?: string) => {
      const response = await transport.request(`${origin}/${hint ? `?hint=${hint}` : ""}`, {
        method: "GET",
        headers: {},
      });
      const socket = (response.body as IncomingMessage).socket;
      expect(await text(response.body)).toBe("ok");
      await new Promise((resolve) => setImmediate(resolve));
      return socket;
    };
    expect((await idleSocket("timeout=3600")).timeout).toBe(600_000);
    expect((await idleSocket("timeout=7")).timeout).toBe(5_000);
    expect((await idleSocket()).timeout).toBe(4_000);
    expect(new Set(ports).size, "one connection while the server allows it").toBe(1);
    // Two seconds or less: the socket might close under the next call; it is not kept.
    expect((await idleSocket("timeout=2")).destroyed).toBe(true);
    await idleSocket();
    expect(new Set(ports).size, "the next call on a new connection").toBe(2);
  });

  it("only a reused socket the pool kept, holding none of the request's bytes, has written nothing", () => {
    expect(wroteNothing(true, null)).toBe(false);
    expect(wroteNothing(false, new Socket())).toBe(false);
    // A socket the pool never kept has no count to compare with: the request may have gone out.
    expect(wroteNothing(true, new Socket())).toBe(false);
  });

  it("a refused connection rejects like fetch: TypeError 'fetch failed' with the socket error as cause", async () => {
    const origin = await serve(() => {});
    await new Promise((resolve) => servers.pop()!.close(resolve));
    await expect(createNodeFetch().fetch(origin)).rejects.toMatchObject({
      name: "TypeError",
      message: "fetch failed",
      cause: { code: "ECONNREFUSED" },
    });
  });
});

describe("a streamed body's Response", () => {
  it("lives while its body does: an SDK unhooking the signal once it is collected still sees aborts", async () => {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const origin = await serve((_req, _body, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write("data: one\n\n");
    });
    const transport = createNodeFetch();
    // As Anthropic's client does: its abort listener on the caller's signal goes with the Response.
    const collected: string[] = [];
    const registry = new FinalizationRegistry<string>((tag) => collected.push(tag));
    const body = await (async () => {
      const response = await transport.fetch(`${origin}/v1/messages`, { method: "POST", body: "{}" });
      registry.register(response, "response");
      return transport.body(response)!;
    })();
    try {
      for (let i = 0; i < 5; i++) {
        gc();
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(collected).toEqual([]);
    } finally {
      body.destroy();
    }
  });
});

describe("NodeFetch.request", () => {
  it("sends what the caller gave, the host header node would send, the body's own length, a query", async () => {
    const seen: { url?: string; headers: string[]; body: string }[] = [];
    const origin = await serve((req, body, res) => {
      seen.push({ url: req.url, headers: req.rawHeaders, body });
      res.writeHead(201, { "x-id": "1" }).end("data: ok\n\n");
    });
    const transport = createNodeFetch();
    const response = await transport.request(`${origin}/v1/x?a=1`, {
      method: "POST",
      headers: { Authorization: "Bearer k", "Content-Length": "999" },
      body: "{}",
    });
    expect(response.status).toBe(201);
    expect(response.rawHeaders).toContain("x-id");
    expect(await text(response.body)).toBe("data: ok\n\n");
    const [request] = seen;
    expect(request!.url).toBe("/v1/x?a=1");
    expect(request!.body).toBe("{}");
    const pairs = Object.fromEntries(
      Array.from({ length: request!.headers.length / 2 }, (_, i) => [
        request!.headers[2 * i],
        request!.headers[2 * i + 1],
      ]),
    );
    expect(pairs).toMatchObject({ host: new URL(origin).host, authorization: "Bearer k", "content-length": "2" });
    expect(request!.headers.filter((name) => name.toLowerCase() === "content-length")).toHaveLength(1);
  });

  it("refuses a URL with credentials, as fetch does, and a protocol it cannot carry", async () => {
    const transport = createNodeFetch();
    await expect(transport.request("http://user:pw@127.0.0.1:1/", { method: "GET", headers: {} })).rejects.toThrow(
      /credentials/,
    );
    await expect(transport.request("ftp://127.0.0.1/", { method: "GET", headers: {} })).rejects.toThrow(/protocol/);
  });
});
