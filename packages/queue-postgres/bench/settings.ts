import { defineModel, type Model } from "@x/llm-types";

/** What the bench parent and its worker processes agree on. */
export const BENCH_KEY = "queue-bench-shared-park-key-0123456";
export const TURNS = 5;
/** Tasks in flight per worker process. */
export const WORKER_CONCURRENCY = 32;
/** An approved `deploy` takes this long after its effect is logged: a SIGKILL can land mid-call. */
export const DEPLOY_MS = 300;
/** Quick crash detection: a dead worker's job expires after 3 s, swept every second. */
export const queueSettings = { jobExpireSeconds: 3, maintenanceIntervalSeconds: 1, maxAttempts: 5 };
/** The worker's task lease: a dead worker's tasks are taken over this long after its last renewal. */
export const WORKER_LEASE_MS = 5_000;

export function benchModel(baseUrl: string): Model {
  return defineModel({
    id: "bench-model",
    api: "openai-completions",
    provider: "loopback",
    baseUrl,
    contextWindow: 128_000,
    maxTokens: 1_000,
    cost: { input: 0.4, output: 1.6 },
  });
}

/** One line of the effect log: the tool's idempotency key and what it did, appended before it returns. */
export function effectLine(idempotencyKey: string, name: string, pid: number): string {
  return `${idempotencyKey}\t${name}\t${pid}\n`;
}
