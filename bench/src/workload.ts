// The one scripted workload every library runs: N tasks, T model turns each; turns 1..T-1 answer
// with exactly one `lookup` tool call, turn T with a fixed final text. Token counts are fixed so
// usage accounting costs the same everywhere.

export const TURNS = 5;
export const MODEL_ID = "bench-model";
export const API_KEY = "sk-bench-loopback";
export const SYSTEM_PROMPT = "You are a benchmark agent. Use the lookup tool when asked, then answer.";
export const TOOL_NAME = "lookup";
export const TOOL_DESCRIPTION = "Look up the value stored under a key.";

/** Final answer, streamed one "token" (word) per chunk. */
export const FINAL_WORDS: readonly string[] = Array.from({ length: 32 }, (_, i) => `w${i} `);
export const FINAL_TEXT = FINAL_WORDS.join("");

/** Fixed usage per turn k (1-based): the prompt grows by one exchange per turn. */
export const usageFor = (k: number, final: boolean) => {
  const prompt_tokens = 120 + 40 * (k - 1);
  const completion_tokens = final ? FINAL_WORDS.length : 12;
  return { prompt_tokens, completion_tokens, total_tokens: prompt_tokens + completion_tokens };
};

export const objectiveFor = (task: number) =>
  `Task ${task}: look up keys k1..k${TURNS - 1} one at a time with the lookup tool, then answer.`;

export const keyFor = (k: number) => `k${k}`;

/** The tool body every harness wraps in its own tool definition. */
export const lookupValue = (key: string) => `value-of-${key}`;

export interface RunCounters {
  toolCalls: number;
}

export const counters: RunCounters = { toolCalls: 0 };

/** Shared tool implementation: counts executions so the child can verify the work was done. */
export const lookup = (key: string): string => {
  counters.toolCalls++;
  return lookupValue(key);
};
