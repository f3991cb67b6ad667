// One worker process of the bench: the OpenAI brain against the bench's loopback model server,
// the bench's two tools, and a queue on the bench's schema. Runs until it is killed.
import { createOpenAIBrain } from "@x/brain-openai";
import { defineTool } from "@x/runner";
import { z } from "zod";
import { createTaskQueue, createWorker } from "../src/index";
import { BENCH_KEY, benchModel, queueSettings } from "./settings";

const [url, schema, baseUrl] = process.argv.slice(2) as [string, string, string];
const queue = createTaskQueue({ connectionString: url, schema, ...queueSettings });
await queue.start();
const effect = (name: string) =>
  defineTool({
    name,
    description: `does ${name}`,
    input: z.object({ n: z.number() }),
    permission: name === "deploy" ? "ask" : "allow",
    execute: async ({ n }, ctx) => {
      await queue.pool.query(`INSERT INTO ${schema}.effects (idempotency_key, name) VALUES ($1, $2)`, [
        ctx.idempotencyKey,
        `${name} ${n}`,
      ]);
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
  tools: [effect("step"), effect("deploy")],
  concurrency: 32,
  leaseMs: 2_000,
  pollMs: 100,
});
await worker.start();
process.stdout.write("ready\n");
