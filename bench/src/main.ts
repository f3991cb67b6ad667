// `pnpm bench` for the bench package: starts the loopback server in its own process, measures each
// (library × mode × concurrency) in a fresh child, prints markdown tables and writes
// results/latest.json.
import { fork, type ChildProcess } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import type { ChildResult } from "./child";
import { MeasuringChild, execArgv } from "./children";
import { harnessOrder } from "./harnesses/registry";
import type { Mode } from "./harnesses/types";
import { renderSummary } from "./profile";
import type { ServerStats } from "./server";
import { cpuRatio, missesTarget, renderReport, type Row, type WarmupRule } from "./report";
import { TURNS } from "./workload";

const here = dirname(fileURLToPath(import.meta.url));
const args = new Map(
  process.argv.slice(2).map((a) => {
    const [k, v] = a.replace(/^--/, "").split("=");
    return [k!, v ?? "true"] as const;
  }),
);
const list = (k: string, dflt: string[]) => (args.get(k) ? args.get(k)!.split(",") : dflt);

if (args.has("source")) process.env.X_BENCH_SOURCE = "1";
const only = list("only", harnessOrder);
const modes = list("modes", ["http", "inproc"]) as Mode[];
const quick = args.has("quick");
/** In-process cells are CPU-bound and need no middle point to show the scaling: 1 and 256. */
const concurrencyFor = (mode: Mode) =>
  list("concurrency", mode === "http" ? ["1", "32", "256"] : ["1", "256"]).map(Number);
const repeats = Number(args.get("repeats") ?? (quick ? 1 : 5));
/**
 * Rounds at a concurrency: three times as many at c=1, whose passes are a fraction of a second.
 * This machine's speed drifts by ±25 % from one second to the next, so a library's best of five
 * short passes was a matter of luck: ours moved from 0.83× to 1.12× the SDK loop between two runs
 * of the same build. Longer cells need no more: each pass spans several seconds of drift.
 */
const repeatsFor = (concurrency: number) => (concurrency === 1 ? 3 * repeats : repeats);
/**
 * `--profile=ours,floor`: after the tables, profile those harnesses (HTTP, highest concurrency) in
 * extra children and print where their CPU goes. Ours is profiled anyway when it misses the target,
 * unless `--no-auto-profile`.
 */
const profileList = list("profile", []);
const autoProfile = !args.has("no-auto-profile");
/** `--profile-mode=inproc` profiles the in-process variant instead (pure loop overhead). */
const profileMode = (args.get("profile-mode") ?? "http") as Mode;
const scale = Number(args.get("scale") ?? (quick ? 0.25 : 1));

/**
 * Tasks per measured pass, and per warm-up. At 256 one pass is one full wave of tasks; per-turn numbers
 * are what compare across concurrencies. The warm-up is four passes' worth and at least 1,024 tasks:
 * with no forced collection before a pass (see `child.ts`), a process reaches its steady heap only
 * after a few passes (with one pass of warm-up, 16 tasks at c=1, the first measured passes cost up
 * to 3× the last), and its compiled code settles only after about a thousand tasks whatever the
 * concurrency (after 128 tasks of warm-up at c=1, 45 passes of 32 tasks fell from 115 to about
 * 45 ms of CPU for ours and from 260 to about 100 for the SDK loop, the first ten passes the
 * dearest, so the medians measured the warm-up's tail).
 */
const warmupRule: WarmupRule = quick ? { passes: 1, tasks: 0 } : { passes: 4, tasks: 1_024 };
const sizing = (c: number) => {
  const base = c === 1 ? 32 : c <= 32 ? 128 : 256;
  const tasks = Math.max(Math.min(c, 256), Math.round(base * scale), 8);
  return { tasks, warmup: Math.max(warmupRule.passes * tasks, warmupRule.tasks) };
};

const resultsDir = join(here, "..", "results");

async function startServer(): Promise<{ proc: ChildProcess; baseURL: string }> {
  const proc = fork(join(here, "server-main.ts"), [], {
    execArgv: execArgv(),
    stdio: ["ignore", "pipe", "inherit", "ipc"],
  });
  const rl = createInterface({ input: proc.stdout! });
  const line = await new Promise<string>((resolve, reject) => {
    rl.once("line", resolve);
    proc.once("exit", (code) => reject(new Error(`server exited with ${code}`)));
  });
  rl.close();
  return { proc, baseURL: (JSON.parse(line) as { baseURL: string }).baseURL };
}

async function serverStats(baseURL: string): Promise<ServerStats> {
  const res = await fetch(baseURL.replace(/\/v1$/, "/__stats"));
  return (await res.json()) as ServerStats;
}

const started = Date.now();
mkdirSync(resultsDir, { recursive: true });
const server = modes.includes("http") ? await startServer() : undefined;
const rows: Row[] = [];
for (const mode of modes) {
  for (const concurrency of concurrencyFor(mode)) {
    rows.push(...(await measureCell(mode, concurrency)));
  }
}

/**
 * One (mode, concurrency): a child per library, all set up and warmed up first, then `repeats`
 * rounds of one measured pass each, the order rotated every round.
 */
async function measureCell(mode: Mode, concurrency: number): Promise<Row[]> {
  const { tasks, warmup } = sizing(concurrency);
  const baseURL = server?.baseURL ?? "";
  const children: MeasuringChild[] = [];
  for (const harness of only) {
    const child = new MeasuringChild({ harness, mode, concurrency, tasks, warmup, baseURL });
    // Warm up one at a time so warm-ups do not compete with each other.
    await child.ready();
    children.push(child);
  }
  const serverUse = new Map<string, NonNullable<Row["server"]>>();
  for (let round = 0; round < repeatsFor(concurrency); round++) {
    for (let j = 0; j < children.length; j++) {
      const child = children[(j + round) % children.length]!;
      if (child.final) continue;
      const before = server && mode === "http" ? await serverStats(server.baseURL) : undefined;
      await child.pass();
      if (server && before) {
        const after = await serverStats(server.baseURL);
        const u = serverUse.get(child.cfg.harness) ?? { requests: 0, rejected: 0, cpuMs: 0 };
        u.requests += after.requests - before.requests;
        u.rejected += after.rejected - before.rejected;
        u.cpuMs += after.cpuMs - before.cpuMs;
        serverUse.set(child.cfg.harness, u);
      }
    }
  }
  const out: Row[] = [];
  for (const child of children) {
    const result = await child.finish();
    const { harness } = child.cfg;
    out.push({ harness, mode, concurrency, tasks, turnsPerTask: TURNS, result, server: serverUse.get(harness) });
    const brief =
      result.status === "ok"
        ? `${result.wallMs.toFixed(0)} ms, ${result.cpuMsPerTurn.toFixed(3)} cpu ms/turn`
        : `${result.status}: ${result.reason}`;
    process.stderr.write(`[bench] ${mode} c=${concurrency} ${harness}: ${brief}\n`);
  }
  return out;
}

// Closing note: profiles of the measured passes (in separate children, so profiling never skews
// the table's numbers).
const toProfile = new Set(profileList);
if (autoProfile && modes.includes("http") && missesTarget(rows)) ["ours", "floor"].forEach((h) => toProfile.add(h));
const profiles: {
  harness: string;
  mode: Mode;
  concurrency: number;
  summary: NonNullable<Extract<ChildResult, { status: "ok" }>["profile"]>;
}[] = [];
if (toProfile.size > 0 && (server || profileMode === "inproc")) {
  const concurrency = Math.max(...concurrencyFor(profileMode));
  const { tasks, warmup } = sizing(concurrency);
  mkdirSync(join(resultsDir, "profiles"), { recursive: true });
  for (const harness of toProfile) {
    const path = join(resultsDir, "profiles", `${harness}-${profileMode}-c${concurrency}.cpuprofile`);
    const child = new MeasuringChild({
      harness,
      mode: profileMode,
      concurrency,
      tasks,
      warmup,
      baseURL: server?.baseURL ?? "",
      profile: path,
    });
    if (await child.ready()) await child.pass();
    const r = await child.finish();
    if (r.status === "ok" && r.profile) profiles.push({ harness, mode: profileMode, concurrency, summary: r.profile });
    process.stderr.write(`[bench] profiled ${harness} c=${concurrency}: ${r.status === "ok" ? path : r.reason}\n`);
  }
}
server?.proc.kill("SIGTERM");

const meta = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: cpus().length,
  cpuModel: cpus()[0]?.model ?? "",
  /** 1-minute load average at the end: the machine is shared, and wall times move with it. */
  loadAverage: loadavg()[0] ?? 0,
  turnsPerTask: TURNS,
  repeats,
  warmupRule,
  durationS: (Date.now() - started) / 1000,
  versions: versions(),
};
process.stdout.write(renderReport(rows, meta));
if (!args.has("no-scaling")) process.stdout.write(`\n${await scalingTable()}`);
if (profiles.length > 0) {
  process.stdout.write("\n### Where the time goes (CPU profile of one measured pass, in its own child)\n\n");
  for (const p of profiles) {
    const title = `${p.harness}, ${p.mode}, concurrency ${p.concurrency}`;
    const ratio = cpuRatio(rows, p.harness, p.mode, p.concurrency);
    process.stdout.write(`${renderSummary(title, p.summary, ratio)}\n\n`);
  }
  process.stdout.write(
    'What has been fixed and what remains: bench/README.md, "Findings" (compare two builds with bench/ab/).\n',
  );
}
writeFileSync(join(resultsDir, "latest.json"), `${JSON.stringify({ meta, rows, profiles }, null, 2)}\n`);
process.stdout.write(`\nJSON: ${join("bench", "results", "latest.json")}\n`);

/** The history/tools scaling table (src/scaling.ts), measured in its own process. */
async function scalingTable(): Promise<string> {
  const proc = fork(join(here, "scaling.ts"), [], {
    execArgv: execArgv(),
    stdio: ["ignore", "pipe", "inherit", "ipc"],
  });
  let out = "";
  proc.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  const code = await new Promise<number | null>((resolve) => proc.once("exit", resolve));
  return code === 0 ? out : `### History and tools scaling: failed (exit ${code})\n`;
}

function versions(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pkg of [
    "openai",
    "@mariozechner/pi-agent-core",
    "@mariozechner/pi-ai",
    "ai",
    "@ai-sdk/openai-compatible",
    "@openai/agents",
    "@langchain/langgraph",
    "@langchain/openai",
    "@langchain/core",
    "@mastra/core",
  ]) {
    try {
      const json = JSON.parse(readFileSync(join(here, "..", "node_modules", pkg, "package.json"), "utf8")) as {
        version: string;
      };
      out[pkg] = json.version;
    } catch {
      out[pkg] = "missing";
    }
  }
  return out;
}
