import { defineModel, type Model } from "@x/llm-types";

/** What the bench parent and its worker processes agree on. */
export const BENCH_KEY = "queue-bench-shared-park-key-0123456";
export const TURNS = 5;
/** Quick crash detection: a dead worker's job expires after 3 s, swept every second. */
export const queueSettings = { jobExpireSeconds: 3, maintenanceIntervalSeconds: 1, maxAttempts: 5 };

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
