// A long scripted coding run (read files, run tests, edit code) on faux brains, with and without
// compaction: input tokens paid, compactions, the cache-stable share of input, what summaries cost,
// and CPU/wall per run. Without compaction the model gets a window large enough never to overflow,
// so both runs do the same work. Prints tables; asserts nothing about time.
import { createRunner, type TaskResult } from "../src/index";
import { OBJECTIVE, codingTools, longRunBrains, longRunModels } from "../test/long-run";

const TURNS = Number(process.env.BENCH_TURNS ?? 300);
const WINDOW = Number(process.env.BENCH_WINDOW ?? 32_000);

async function run(compaction: boolean, turns = TURNS): Promise<{ result: TaskResult; wallMs: number; cpuMs: number }> {
  const { brains } = longRunBrains(turns);
  const runner = createRunner({
    brains,
    models: longRunModels(compaction ? WINDOW : 10_000_000),
    roles: { default: "main", summarize: "sum" },
    ...(compaction ? {} : { compaction: false as const }),
  });
  const cpu = process.cpuUsage();
  const start = performance.now();
  const result = await runner.runTask({ objective: OBJECTIVE, tools: codingTools(), maxTurns: turns + 10 });
  const used = process.cpuUsage(cpu);
  return { result, wallMs: performance.now() - start, cpuMs: (used.user + used.system) / 1000 };
}

/** Input tokens a prefix cache can serve: each request's part that equals the previous request. */
function stableShare(result: TaskResult): number {
  if (result.compaction) return result.compaction.cacheStableShare;
  // Without compaction every request extends the last one.
  const inputs = result.messages.flatMap((m) => (m.role === "assistant" ? [m.usage.input] : []));
  const total = inputs.reduce((a, b) => a + b, 0);
  const stable = inputs.slice(0, -1).reduce((a, b) => a + b, 0);
  return total === 0 ? 0 : stable / total;
}

// Warm-up, so neither measured run pays for the JIT alone.
await run(true, 30);
await run(false, 30);
const off = await run(false);
const on = await run(true);
const row = (label: string, r: Awaited<ReturnType<typeof run>>) => ({
  run: label,
  status: r.result.status,
  turns: r.result.stats.turns,
  "input tokens": r.result.stats.usage.input,
  "largest request": Math.max(...r.result.messages.flatMap((m) => (m.role === "assistant" ? [m.usage.input] : [0]))),
  compactions: r.result.compaction?.compactions ?? 0,
  "cache-stable share": `${(stableShare(r.result) * 100).toFixed(1)} %`,
  "summary tokens": r.result.compaction?.tokens ?? 0,
  "summary cost µ$": r.result.compaction?.costMicroUsd ?? 0,
  "run cost µ$": r.result.stats.costMicroUsd,
  "wall ms": Math.round(r.wallMs),
  "cpu ms": Math.round(r.cpuMs),
});
console.log(`Long coding run: ${TURNS} tool turns, window ${WINDOW} tokens with compaction (unbounded without).`);
console.table([row("without compaction", off), row("with compaction", on)]);
console.table([
  {
    "input tokens (with / without)": (on.result.stats.usage.input / off.result.stats.usage.input).toFixed(3),
    "cost (with / without)": (on.result.stats.costMicroUsd / off.result.stats.costMicroUsd).toFixed(3),
    "cpu (with / without)": (on.cpuMs / off.cpuMs).toFixed(2),
    "wall (with / without)": (on.wallMs / off.wallMs).toFixed(2),
  },
]);
