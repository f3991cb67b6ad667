import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { startOpenAIMockServer, type OpenAIMockReply, type RecordedRequest } from "@x/brain-openai/testing";
import { TURNS } from "./settings";

/** The bench's model: real HTTP and SSE on loopback, counting the calls each task cost. */
export interface BenchModelServer {
  readonly baseUrl: string;
  /** Model calls answered so far. */
  calls(): number;
  close(): Promise<void>;
}

/** The objective of a task that parks first: its first turn asks for the gated `deploy`. */
export const deployObjective = (i: number) => `task ${i}: deploy, then the steps`;
export const stepsObjective = (i: number) => `task ${i}: the steps`;

/**
 * Each request is answered after `turnMs` (the model "thinking"), then streamed at once: four tool
 * calls (a `deploy` first for a deploy task), each under a random call id, then the answer — five
 * turns a task.
 */
export async function startBenchModelServer(turnMs: number): Promise<BenchModelServer> {
  let calls = 0;
  const reply = async (request: RecordedRequest): Promise<OpenAIMockReply> => {
    calls += 1;
    await sleep(turnMs);
    const body = request.body as { messages: Array<{ role: string; content?: unknown }> };
    const results = body.messages.filter((m) => m.role === "tool").length;
    const deploy = JSON.stringify(body.messages.find((m) => m.role === "user")?.content ?? "").includes("deploy");
    if (results >= TURNS - 1) return { text: ["All ", "steps ", "done."] };
    const name = deploy && results === 0 ? "deploy" : "step";
    // A fresh random id on every request, as a real provider names its calls: a re-run step keeps its
    // key only because the accepted turn was durable, never because the model repeated itself.
    return { toolCalls: [{ id: `call_${randomUUID()}`, name, arguments: { n: results + 1 } }] };
  };
  const server = await startOpenAIMockServer(async (request) => {
    // The server keeps every request it answered; a bench of tens of thousands needs only the count.
    server.requests.splice(0);
    return reply(request);
  });
  return {
    baseUrl: server.baseUrl,
    calls: () => calls,
    close: () => server.close(),
  };
}
