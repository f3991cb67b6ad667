// The turn-cost bench's model over the wire, in a process of its own so its CPU is not the runner's:
// a loopback Chat Completions server that answers each turn at once with the call `turn-script.ts`
// names, under a fresh random id as a real provider names its calls, until the last turn, which is the
// answer. Prints its base URL.
import { randomUUID } from "node:crypto";
import { startOpenAIMockServer } from "@x/brain-openai/testing";
import { nextCall } from "./turn-script";

interface Body {
  messages: Array<{ role: string; content?: unknown }>;
}

const server = await startOpenAIMockServer(async (request) => {
  // The server keeps every request it answered; a bench of thousands of turns needs none of them.
  server.requests.splice(0);
  const { messages } = request.body as Body;
  const results = messages.filter((m) => m.role === "tool").length;
  const call = nextCall(messages.find((m) => m.role === "user")?.content, results);
  return call
    ? { toolCalls: [{ id: `call_${randomUUID()}`, name: call.tool, arguments: { n: call.n } }] }
    : { text: ["done"] };
});
process.stdout.write(`${server.baseUrl}\n`);
