// One measurement in a fresh process: one library, one mode, one concurrency. Warm-up pass, then
// `repeats` measured passes; reports the median pass and the process's peak RSS to the parent.
import { performance } from "node:perf_hooks";
import { harnesses } from "./harnesses/registry";
import type { Mode } from "./harnesses/types";
import { runPool } from "./pool";
import { saveProfile, startProfiler, summarize, type ProfileSummary } from "./profile";
import { FINAL_TEXT, TURNS, counters } from "./workload";

export interface ChildConfig {
  harness: string;
  mode: Mode;
  concurrency: number;
  tasks: number;
  warmup: number;
  repeats: number;
  baseURL: string;
  /** Write a CPU profile of the measured passes here and summarise it in the result. */
  profile?: string;
}

export interface PassResult {
  wallMs: number;
  cpuMs: number;
}

export type ChildResult =
  | {
      status: "ok";
      label: string;
      packages: string[];
      wallMs: number;
      cpuMs: number;
      cpuMsPerTurn: number;
      turns: number;
      peakRssMb: number;
      passes: PassResult[];
      profile?: ProfileSummary;
    }
  | { status: "unavailable"; label: string; packages: string[]; reason: string }
  | { status: "failed"; label: string; packages: string[]; reason: string };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function measure(cfg: ChildConfig): Promise<ChildResult> {
  const load = harnesses[cfg.harness];
  if (!load) throw new Error(`unknown harness ${cfg.harness}`);
  const h = await load();
  const base = { label: h.label, packages: h.packages };
  let task;
  try {
    task = await h.setup(cfg.mode, { baseURL: cfg.baseURL });
  } catch (e) {
    return { ...base, status: "failed", reason: `setup: ${errorText(e)}` };
  }
  if (typeof task !== "function") return { ...base, status: "unavailable", reason: task.unavailable };
  const run = task;
  const pass = async (n: number) => {
    counters.toolCalls = 0;
    await runPool(n, cfg.concurrency, async (i) => {
      const out = await run(i);
      if (out.trim() !== FINAL_TEXT.trim()) throw new Error(`task ${i}: wrong final answer ${JSON.stringify(out).slice(0, 200)}`);
    });
    if (counters.toolCalls !== n * (TURNS - 1)) {
      throw new Error(`expected ${n * (TURNS - 1)} tool calls, saw ${counters.toolCalls}`);
    }
  };
  try {
    await pass(cfg.warmup);
    const passes: PassResult[] = [];
    const stopProfiler = cfg.profile ? await startProfiler() : undefined;
    for (let r = 0; r < cfg.repeats; r++) {
      globalThis.gc?.();
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      await pass(cfg.tasks);
      const wallMs = performance.now() - t0;
      const cpu = process.cpuUsage(cpu0);
      passes.push({ wallMs, cpuMs: (cpu.user + cpu.system) / 1000 });
    }
    let profile: ProfileSummary | undefined;
    if (stopProfiler && cfg.profile) {
      const p = await stopProfiler();
      saveProfile(cfg.profile, p);
      profile = summarize(p);
    }
    const turns = cfg.tasks * TURNS;
    const cpuMs = median(passes.map((p) => p.cpuMs));
    return {
      ...base,
      status: "ok",
      wallMs: median(passes.map((p) => p.wallMs)),
      cpuMs,
      cpuMsPerTurn: cpuMs / turns,
      turns,
      // maxRSS is in kilobytes on Linux.
      peakRssMb: process.resourceUsage().maxRSS / 1024,
      passes,
      ...(profile ? { profile } : {}),
    };
  } catch (e) {
    return { ...base, status: "failed", reason: errorText(e) };
  }
}

function errorText(e: unknown): string {
  if (e instanceof Error) {
    const cause = e.cause instanceof Error ? ` (cause: ${e.cause.message})` : "";
    return `${e.name}: ${e.message}${cause}`.replace(/\s+/g, " ").slice(0, 400);
  }
  return String(e).slice(0, 400);
}

const cfg = JSON.parse(process.argv[2] ?? "{}") as ChildConfig;
const result = await measure(cfg);
if (process.send) {
  process.send(result, () => process.exit(0));
} else {
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exit(0);
}
