// 1,000 concurrent tasks of 5 turns each (4 tool calls, then the answer) on faux brains.
// Prints throughput, CPU per turn, peak RSS and heap before/after; asserts nothing about time.
import { createFauxBrain, fauxModel, fauxText, fauxToolCall, type FauxRequestContext } from "@x/brain-faux";
import { z } from "zod";
import { createRunner, defineTool, type TaskResult } from "../src/index";

const TASKS = Number(process.env.BENCH_TASKS ?? 1000);
const TURNS = 5;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

const lookup = defineTool({
  name: "lookup",
  description: "Looks a key up",
  input: z.object({ key: z.string() }),
  readOnly: true,
  execute: async ({ key }) => ({ key, value: key.length }),
});

// A responder keyed on the request: the number of tool results so far decides the next move, so
// one brain serves every concurrent task without shared script state.
const respond = ({ context }: FauxRequestContext) => {
  const done = context.messages.filter((m) => m.role === "toolResult").length;
  return done < TURNS - 1
    ? fauxToolCall("lookup", { key: `k${done}` }, { text: "Looking it up." })
    : fauxText("All keys found; the answer is 42.");
};
const models = { main: fauxModel({ id: "main" }) };

async function round(): Promise<{ wallMs: number; cpuMs: number; results: TaskResult[] }> {
  // A fresh faux brain per round: it records every call it gets, which is not the runner's memory.
  const runner = createRunner({ brains: [createFauxBrain(respond)], models });
  const cpu = process.cpuUsage();
  const start = performance.now();
  const results = await Promise.all(
    Array.from({ length: TASKS }, (_, i) =>
      runner.runTask({ objective: `task ${i}: find the keys`, tools: [lookup], runId: `bench-${i}` }),
    ),
  );
  const wallMs = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { wallMs, cpuMs: (used.user + used.system) / 1000, results };
}

const gc = (globalThis as { gc?: () => void }).gc;
const heapMb = () => {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed / 2 ** 20;
};

let peakRss = 0;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 5);

// Warm-up round: JIT and module caches, so "before" is the steady state.
await round();
const heapBefore = heapMb();
const rows: Array<Record<string, string | number>> = [];
for (let r = 1; r <= ROUNDS; r++) {
  const { wallMs, cpuMs, results } = await round();
  const turns = results.reduce((sum, res) => sum + res.stats.turns, 0);
  const bad = results.filter((res) => res.status !== "completed" || res.stats.turns !== TURNS).length;
  rows.push({
    round: r,
    tasks: TASKS,
    "turns/task": turns / TASKS,
    "not completed": bad,
    "wall ms": Math.round(wallMs),
    "tasks/s": Math.round((TASKS / wallMs) * 1000),
    "CPU ms/turn": Number((cpuMs / turns).toFixed(3)),
  });
  // Drop this round's results before the next one, so the heap is measured without them.
  results.length = 0;
}
clearInterval(sampler);
const heapAfter = heapMb();
console.table(rows);
console.table([
  {
    "peak RSS MB": Math.round(Math.max(peakRss, process.memoryUsage().rss) / 2 ** 20),
    "heap before MB": Number(heapBefore.toFixed(1)),
    "heap after MB": Number(heapAfter.toFixed(1)),
    "heap growth MB": Number((heapAfter - heapBefore).toFixed(1)),
    "gc exposed": gc !== undefined,
  },
]);
