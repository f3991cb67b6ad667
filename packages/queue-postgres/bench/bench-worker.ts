// One worker process of the bench: the OpenAI brain against the bench's loopback model server,
// the bench's two tools, and a queue on the bench's schema. Runs until it is killed.
import { appendFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { createOpenAIBrain } from "@x/brain-openai";
import { defineTool } from "@x/runner";
import { z } from "zod";
import { createTaskQueue, createWorker } from "../src/index";
import {
  BENCH_KEY,
  benchModel,
  DEPLOY_MS,
  effectLine,
  queueSettings,
  WORKER_CONCURRENCY,
  WORKER_LEASE_MS,
} from "./settings";

const [url, schema, baseUrl, effectLog] = process.argv.slice(2) as [string, string, string, string];
const queue = createTaskQueue({ connectionString: url, schema, ...queueSettings });
await queue.start();
// The effect log is a file outside PostgreSQL, appended (O_APPEND, one short line: atomic) before the
// tool returns: the bench counts executions from it, not from anything the queue wrote.
const effect = (name: string, takesMs: number) =>
  defineTool({
    name,
    description: `does ${name}`,
    input: z.object({ n: z.number() }),
    permission: name === "deploy" ? "ask" : "allow",
    execute: async ({ n }, ctx) => {
      appendFileSync(effectLog, effectLine(ctx.idempotencyKey, `${name} ${n}`, process.pid));
      if (takesMs > 0) await sleep(takesMs);
      return `${name} ${n} done`;
    },
  });
const worker = createWorker({
  queue,
  runner: {
    brains: [createOpenAIBrain({ apiKey: "bench" })],
    models: { main: benchModel(baseUrl) },
    parkKey: BENCH_KEY,
  },
  tools: [effect("step", 0), effect("deploy", DEPLOY_MS)],
  concurrency: WORKER_CONCURRENCY,
  leaseMs: WORKER_LEASE_MS,
  pollMs: 100,
});
await worker.start();
process.stdout.write("ready\n");
