// One library, one mode, one concurrency, in a fresh process (so RSS and heap are that library's):
// a warm-up (four passes' worth and at least 1,024 tasks), then measured passes on the parent's
// command; reports the best and the median pass and the process's peak RSS.
import { performance } from "node:perf_hooks";
import { takeOutsideAttempts } from "./no-network";
import { harnesses } from "./harnesses/registry";
import type { Mode } from "./harnesses/types";
import { runPool } from "./pool";
import { saveProfile, startProfiler, summarize, type CpuProfile, type ProfileSummary } from "./profile";
import { FINAL_TEXT, TURNS, counters } from "./workload";

export interface ChildConfig {
  harness: string;
  mode: Mode;
  concurrency: number;
  tasks: number;
  warmup: number;
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
      /** Best (lowest) pass: on a shared machine, the least disturbed one. */
      wallMs: number;
      cpuMs: number;
      cpuMsPerTurn: number;
      wallMsMedian: number;
      cpuMsPerTurnMedian: number;
      turns: number;
      peakRssMb: number;
      passes: PassResult[];
      profile?: ProfileSummary;
    }
  | { status: "unavailable"; label: string; packages: string[]; reason: string }
  | { status: "failed"; label: string; packages: string[]; reason: string };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Parent → child. */
export type ChildCommand = { type: "pass" } | { type: "finish" };
/** Child → parent. */
export type ChildMessage =
  { type: "ready" } | { type: "pass"; pass: PassResult } | { type: "final"; result: ChildResult };

const send = (m: ChildMessage) =>
  new Promise<void>((resolve) => (process.send ? process.send(m, () => resolve()) : resolve()));

/**
 * Sets up and warms up, then waits for the parent: each `pass` runs one measured pass, `finish`
 * reports the result and exits. Passes are driven from outside so the parent can interleave
 * libraries round by round: on a shared machine, load that comes and goes then hits every library
 * alike instead of whichever ran during it.
 */
async function serve(cfg: ChildConfig): Promise<ChildResult> {
  // `ours@fixed`: a suffix after `@` is ignored here but lets a `--import` hook (NODE_OPTIONS) that
  // reads it from argv load another build of the packages (bench/ab), for A/B runs of two builds.
  const load = harnesses[cfg.harness.split("@")[0]!];
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
      if (out.trim() !== FINAL_TEXT.trim())
        throw new Error(`task ${i}: wrong final answer ${JSON.stringify(out).slice(0, 200)}`);
    });
    if (counters.toolCalls !== n * (TURNS - 1)) {
      throw new Error(`expected ${n * (TURNS - 1)} tool calls, saw ${counters.toolCalls}`);
    }
    const outside = takeOutsideAttempts();
    if (outside.length > 0)
      throw new Error(`tried to reach ${[...new Set(outside)].join(", ")} (only loopback exists)`);
  };
  try {
    await pass(cfg.warmup);
    const passes: PassResult[] = [];
    let stopProfiler: (() => Promise<CpuProfile>) | undefined;
    await send({ type: "ready" });
    for await (const cmd of commands()) {
      if (cmd.type === "finish") break;
      // No forced collection first: after one, V8 starts its young generation again at its smallest,
      // and the pass pays for the scavenges of growing it back (every row about twice as dear at
      // c=256, the SDK loop most of all). A process serving calls never collects that way; each
      // pass pays for its predecessor's garbage as every steady pass does.
      // Started on the first pass, not before `ready`: the wait for the parent is no pass's time.
      if (cfg.profile && !stopProfiler) stopProfiler = await startProfiler();
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      await pass(cfg.tasks);
      const wallMs = performance.now() - t0;
      const cpu = process.cpuUsage(cpu0);
      const p = { wallMs, cpuMs: (cpu.user + cpu.system) / 1000 };
      passes.push(p);
      await send({ type: "pass", pass: p });
    }
    let profile: ProfileSummary | undefined;
    if (stopProfiler && cfg.profile) {
      const p = await stopProfiler();
      saveProfile(cfg.profile, p);
      profile = summarize(p);
    }
    if (passes.length === 0) return { ...base, status: "failed", reason: "finished before any measured pass" };
    const turns = cfg.tasks * TURNS;
    const cpuMs = Math.min(...passes.map((p) => p.cpuMs));
    return {
      ...base,
      status: "ok",
      wallMs: Math.min(...passes.map((p) => p.wallMs)),
      cpuMs,
      cpuMsPerTurn: cpuMs / turns,
      wallMsMedian: median(passes.map((p) => p.wallMs)),
      cpuMsPerTurnMedian: median(passes.map((p) => p.cpuMs)) / turns,
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

/** Commands from the parent, in order. */
async function* commands(): AsyncGenerator<ChildCommand> {
  const queue: ChildCommand[] = [];
  let wake: (() => void) | undefined;
  const onMessage = (m: ChildCommand) => {
    queue.push(m);
    wake?.();
  };
  process.on("message", onMessage);
  process.once("disconnect", () => onMessage({ type: "finish" }));
  try {
    for (;;) {
      const next = queue.shift();
      if (next) {
        yield next;
        if (next.type === "finish") return;
        continue;
      }
      await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
  } finally {
    process.off("message", onMessage);
  }
}

/**
 * An error and its whole cause chain with each link's code: a library's "Connection error" says
 * little until the socket error under its `fetch failed` is printed with it.
 */
function errorText(e: unknown): string {
  const links: string[] = [];
  for (let at: unknown = e; at !== undefined && links.length < 5;) {
    if (!(at instanceof Error)) {
      // A thrown non-Error (a string, a plain object): its JSON, else its text.
      links.push(JSON.stringify(at) ?? typeof at);
      break;
    }
    const code = (at as NodeJS.ErrnoException).code;
    links.push(`${at.name}: ${at.message}${code ? ` [${code}]` : ""}`);
    at = at.cause;
  }
  return links.join("; cause: ").replace(/\s+/g, " ").slice(0, 600);
}

const cfg = JSON.parse(process.argv[2] ?? "{}") as ChildConfig;
const result = await serve(cfg);
await send({ type: "final", result });
process.exit(0);
