// The limit: the floor's hand loop on `node:http` with a keep-alive agent and a hand-split SSE
// reader, no SDK. Not something to ship (no retries, auth rules, error mapping or types), but what
// the same turns cost with nothing between the loop and the socket: the bar under every SDK row.
import { Agent, request } from "node:http";
import type { ChatCompletionChunk, ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { API_KEY, MODEL_ID } from "../workload";
import { handLoop, tools } from "./floor";
import type { Harness } from "./types";

async function* sse(baseURL: string, agent: Agent, messages: ChatCompletionMessageParam[]) {
  const body = JSON.stringify({
    model: MODEL_ID,
    messages,
    tools,
    stream: true,
    stream_options: { include_usage: true },
  });
  const url = new URL(`${baseURL}/chat/completions`);
  const res = await new Promise<import("node:http").IncomingMessage>((resolve, reject) => {
    const req = request(
      url,
      {
        method: "POST",
        agent,
        headers: {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
          authorization: `Bearer ${API_KEY}`,
        },
      },
      resolve,
    );
    req.on("error", reject);
    req.end(body);
  });
  if (res.statusCode !== 200) throw new Error(`limit: HTTP ${res.statusCode}`);
  res.setEncoding("utf8");
  let buffer = "";
  let done = false;
  // Read to the end even after [DONE]: leaving early destroys the socket, and the next call would
  // pay for a new connection that no real client pays for.
  for await (const piece of res as AsyncIterable<string>) {
    if (done) continue;
    buffer += piece;
    let end: number;
    while (!done && (end = buffer.indexOf("\n\n")) >= 0) {
      const event = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      for (const line of event.split("\n")) {
        if (!line.startsWith("data: ")) continue;
        const data = line.slice(6);
        if (data === "[DONE]") {
          done = true;
          break;
        }
        yield JSON.parse(data) as ChatCompletionChunk;
      }
    }
  }
}

export const limit: Harness = {
  label: "limit: node:http + hand-split SSE, hand loop",
  packages: [],
  async setup(mode, { baseURL }) {
    if (mode === "inproc") return { unavailable: "n/a: the in-process floor has no transport to remove" };
    const agent = new Agent({ keepAlive: true, maxSockets: 512 });
    return handLoop(async (messages) => sse(baseURL, agent, messages));
  },
};
