import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** One request as the scripted server received it. */
export interface RecordedRequest {
  method: string;
  /** Path and query, e.g. `/v1/chat/completions`. */
  path: string;
  /** Header names lower-cased; repeated headers joined with `, `. */
  headers: Record<string, string>;
  /** The body parsed as JSON, or the raw text when it is not JSON. */
  body: unknown;
}

/**
 * What the server does with one request, at the wire level:
 * - `sse`: `200 text/event-stream`, writes `frames` (each already a full SSE event, blank line
 *   included) `delayMs` apart, then ends as `ending` says — `end` closes the response cleanly,
 *   `destroy` resets the socket, `hang` keeps it open and silent (a stall) until the server closes;
 * - `json`: one JSON (or text) response with a status, e.g. a provider error;
 * - `destroy`: resets the socket before any response byte;
 * - `hang`: never answers (the caller's deadline decides).
 */
export type WireReply =
  | {
      kind: "sse";
      frames: string[];
      delayMs?: number;
      ending: "end" | "destroy" | "hang";
      headers?: Record<string, string>;
    }
  | { kind: "json"; status: number; body: unknown; headers?: Record<string, string> }
  | { kind: "destroy" }
  | { kind: "hang" };

export type WireHandler = (request: RecordedRequest, index: number) => WireReply | Promise<WireReply>;

/** A running loopback server. `close()` also drops connections a `hang` reply kept open. */
export interface ScriptedServer {
  /** `http://127.0.0.1:<port>` — append the provider's base path yourself. */
  readonly origin: string;
  /** Every request received so far, in order. */
  readonly requests: RecordedRequest[];
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function headerRecord(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

async function play(reply: WireReply, req: IncomingMessage, res: ServerResponse): Promise<void> {
  switch (reply.kind) {
    case "destroy":
      req.socket.destroy();
      return;
    case "hang":
      return;
    case "json": {
      const body = typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body);
      res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
      res.end(body);
      return;
    }
    case "sse": {
      res.writeHead(200, {
        "content-type": "text/event-stream",
        "cache-control": "no-cache",
        connection: "keep-alive",
        ...reply.headers,
      });
      res.flushHeaders();
      for (const frame of reply.frames) {
        if (reply.delayMs) await sleep(reply.delayMs);
        if (res.destroyed) return;
        res.write(frame);
      }
      if (reply.ending === "end") res.end();
      // Give the frames a moment to leave before the reset, so "some data, then a reset" is what the client sees.
      else if (reply.ending === "destroy") setTimeout(() => req.socket.destroy(), 20);
      return;
    }
  }
}

/** Starts a real HTTP server on 127.0.0.1 (ephemeral port) that answers each request as `handler` says. */
export async function startScriptedServer(handler: WireHandler): Promise<ScriptedServer> {
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    void (async () => {
      const recorded: RecordedRequest = {
        method: req.method ?? "GET",
        path: req.url ?? "/",
        headers: headerRecord(req),
        body: await readBody(req),
      };
      const index = requests.length;
      requests.push(recorded);
      let reply: WireReply;
      try {
        reply = await handler(recorded, index);
      } catch (error) {
        reply = { kind: "json", status: 500, body: { error: { message: `scripted server: ${String(error)}` } } };
      }
      await play(reply, req, res);
    })();
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** One SSE event: optional `event:` line, one `data:` line, blank line. */
export function sseFrame(data: unknown, event?: string): string {
  const payload = typeof data === "string" ? data : JSON.stringify(data);
  return `${event ? `event: ${event}\n` : ""}data: ${payload}\n\n`;
}
