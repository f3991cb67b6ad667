// Loopback OpenAI-compatible Chat Completions server scripted to the bench workload. It decides
// the turn from the request alone (count of tool results), so it holds no per-conversation state
// and any number of concurrent conversations can share it.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { anthropicStream } from "./anthropic-script";
import { completionObject, streamChunks } from "./script";
import { TURNS, keyFor, lookupValue } from "./workload";

interface ChatMessage {
  role: string;
  content?: unknown;
}
interface ChatRequest {
  model?: string;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  messages?: ChatMessage[];
}

export interface ServerStats {
  requests: number;
  streamed: number;
  rejected: number;
  /** The server process's CPU so far (user + system), to show it is not the bottleneck. */
  cpuMs: number;
}

const sseBody = (chunks: readonly unknown[]) =>
  chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join("") + "data: [DONE]\n\n";

// Bodies depend only on (turn, usage flag): build them once so the server's own CPU stays small
// next to the client's at concurrency 256.
const bodies = new Map<string, string>();
function cached(key: string, make: () => string): string {
  let b = bodies.get(key);
  if (b === undefined) bodies.set(key, (b = make()));
  return b;
}

const contentText = (c: unknown): string => (typeof c === "string" ? c : JSON.stringify(c ?? ""));

/** Which turn this request is, or an error when the last tool result is not what lookup returns. */
function turnOf(req: ChatRequest): { k: number } | { error: string } {
  const msgs = req.messages ?? [];
  let tools = 0;
  let last: ChatMessage | undefined;
  for (const m of msgs) {
    if (m.role === "tool") {
      tools++;
      last = m;
    }
  }
  if (last && !contentText(last.content).includes(lookupValue(keyFor(tools)))) {
    return {
      error: `tool result ${tools} should contain ${lookupValue(keyFor(tools))}, got ${contentText(last.content)}`,
    };
  }
  if (tools >= TURNS) return { error: `too many tool results (${tools})` };
  return { k: tools + 1 };
}

interface AnthropicRequest {
  messages?: Array<{ role: string; content?: unknown }>;
}

/** The Messages-wire twin of `turnOf`: the turn is the count of tool_result blocks. */
function anthropicTurnOf(req: AnthropicRequest): { k: number } | { error: string } {
  const results: unknown[] = [];
  for (const m of req.messages ?? []) {
    if (m.role !== "user" || !Array.isArray(m.content)) continue;
    for (const block of m.content as Array<{ type?: string; content?: unknown }>)
      if (block.type === "tool_result") results.push(block.content);
  }
  const tools = results.length;
  if (tools > 0 && !contentText(results[tools - 1]).includes(lookupValue(keyFor(tools)))) {
    return { error: `tool result ${tools} should contain ${lookupValue(keyFor(tools))}` };
  }
  if (tools >= TURNS) return { error: `too many tool results (${tools})` };
  return { k: tools + 1 };
}

function reject(res: ServerResponse, status: number, message: string) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify({ error: { message, type: "invalid_request_error", code: null } }));
}

export function createScriptedServer(): { server: Server; stats: ServerStats } {
  const stats: ServerStats = { requests: 0, streamed: 0, rejected: 0, cpuMs: 0 };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.method === "GET" && req.url === "/__stats") {
      const cpu = process.cpuUsage();
      stats.cpuMs = (cpu.user + cpu.system) / 1000;
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(stats));
      return;
    }
    const anthropic = req.url?.endsWith("/v1/messages") === true;
    if (req.method !== "POST" || (!anthropic && !req.url?.endsWith("/chat/completions"))) {
      reject(res, 404, `no route ${req.method} ${req.url}`);
      return;
    }
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      stats.requests++;
      let body: ChatRequest;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as ChatRequest;
      } catch {
        stats.rejected++;
        reject(res, 400, "body is not JSON");
        return;
      }
      const turn = anthropic ? anthropicTurnOf(body as AnthropicRequest) : turnOf(body);
      if ("error" in turn) {
        stats.rejected++;
        reject(res, 400, turn.error);
        return;
      }
      if (anthropic) {
        stats.streamed++;
        res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
        res.end(cached(`a${turn.k}`, () => anthropicStream(turn.k)));
      } else if (body.stream) {
        stats.streamed++;
        const usage = body.stream_options?.include_usage === true;
        res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
        // One write per response: the client parses the same events either way, and the
        // server's syscalls stay off the client's critical path.
        res.end(cached(`s${turn.k}${usage ? "u" : ""}`, () => sseBody(streamChunks(turn.k, usage))));
      } else {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(cached(`j${turn.k}`, () => JSON.stringify(completionObject(turn.k))));
      }
    });
  });
  // The server never closes an idle connection under a client (an hour is longer than any run):
  // each client's own idle timeout closes it first. At 120 s it raced the clients: a child waits
  // idle between its passes while the other libraries run theirs (two minutes and more at c=256 on
  // a loaded machine), and a busy client reads a response seconds after the server wrote it, so its
  // idle clock starts late; a socket the server closed just as the next pass began carried that
  // pass's first requests into a reset (`fetch failed`: undici does not retry a POST).
  server.keepAliveTimeout = 3_600_000;
  server.headersTimeout = 125_000;
  return { server, stats };
}

export async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return `http://127.0.0.1:${port}/v1`;
}
