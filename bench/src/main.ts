// `pnpm bench` for the bench package: starts the loopback server in its own process, measures each
// (library × mode × concurrency) in a fresh child, prints markdown tables and writes
// results/latest.json.
import { fork, type ChildProcess } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import type { ChildConfig, ChildResult } from "./child";
import { harnessOrder } from "./harnesses/registry";
import type { Mode } from "./harnesses/types";
import { renderSummary } from "./profile";
import type { ServerStats } from "./server";
import { missesTarget, renderReport, type Row } from "./report";
import { TURNS } from "./workload";

const here = dirname(fileURLToPath(import.meta.url));
const args = new Map(
  process.argv.slice(2).map((a) => {
    const [k, v] = a.replace(/^--/, "").split("=");
    return [k!, v ?? "true"] as const;
  }),
);
const list = (k: string, dflt: string[]) => (args.get(k) ? args.get(k)!.split(",") : dflt);

const only = list("only", harnessOrder);
const modes = list("modes", ["http", "inproc"]) as Mode[];
const quick = args.has("quick");
/** In-process cells are CPU-bound and need no middle point to show the scaling: 1 and 256. */
const concurrencyFor = (mode: Mode) =>
  list("concurrency", mode === "http" ? ["1", "32", "256"] : ["1", "256"]).map(Number);
const repeats = Number(args.get("repeats") ?? (quick ? 1 : 3));
/**
 * `--profile=ours,floor`: after the tables, profile those harnesses (HTTP, highest concurrency) in
 * extra children and print where their CPU goes. Ours is profiled anyway when it misses the target,
 * unless `--no-auto-profile`.
 */
const profileList = list("profile", []);
const autoProfile = !args.has("no-auto-profile");
const scale = Number(args.get("scale") ?? (quick ? 0.25 : 1));

/**
 * Tasks per measured pass, and per warm-up. Sized so the whole run stays within a few minutes on two
 * cores: at 256 the pool is filled 1.5 times over HTTP (once in-process); per-turn numbers are what
 * compare across concurrencies.
 */
const sizing = (mode: Mode, c: number) => {
  const base = c === 1 ? 32 : c <= 32 ? 192 : mode === "http" ? 384 : 256;
  const tasks = Math.max(Math.min(c, 256), Math.round(base * scale), 8);
  return { tasks, warmup: Math.min(tasks, Math.max(16, c)) };
};

const resultsDir = join(here, "..", "results");
const execArgv = ["--conditions=@x/source", "--import", "tsx", "--expose-gc"];

async function startServer(): Promise<{ proc: ChildProcess; baseURL: string }> {
  const proc = fork(join(here, "server-main.ts"), [], { execArgv, stdio: ["ignore", "pipe", "inherit", "ipc"] });
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

function runChild(cfg: ChildConfig, timeoutMs: number): Promise<ChildResult> {
  const child = fork(join(here, "child.ts"), [JSON.stringify(cfg)], { execArgv, stdio: ["ignore", "inherit", "pipe", "ipc"] });
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
  return new Promise((resolve) => {
    let settled = false;
    const finish = (r: ChildResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    };
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      finish({ status: "failed", label: cfg.harness, packages: [], reason: `timed out after ${timeoutMs / 1000}s` });
    }, timeoutMs);
    child.on("message", (m) => finish(m as ChildResult));
    child.on("exit", (code, signal) =>
      finish({
        status: "failed",
        label: cfg.harness,
        packages: [],
        reason: `child exited (${code ?? signal}) without a result: ${stderr.trim().split("\n").slice(-3).join(" | ")}`,
      }),
    );
  });
}

const started = Date.now();
mkdirSync(resultsDir, { recursive: true });
const server = modes.includes("http") ? await startServer() : undefined;
const rows: Row[] = [];
for (const mode of modes) {
  for (const concurrency of concurrencyFor(mode)) {
    const { tasks, warmup } = sizing(mode, concurrency);
    for (const harness of only) {
      const before = server ? await serverStats(server.baseURL) : undefined;
      const result = await runChild({ harness, mode, concurrency, tasks, warmup, repeats, baseURL: server?.baseURL ?? "" }, 180_000);
      let server_: Row["server"];
      if (server && before && mode === "http") {
        const after = await serverStats(server.baseURL);
        server_ = { requests: after.requests - before.requests, rejected: after.rejected - before.rejected, cpuMs: after.cpuMs - before.cpuMs };
      }
      const row: Row = { harness, mode, concurrency, tasks, turnsPerTask: TURNS, result, server: server_ };
      rows.push(row);
      const brief = result.status === "ok" ? `${result.wallMs.toFixed(0)} ms, ${result.cpuMsPerTurn.toFixed(3)} cpu ms/turn` : `${result.status}: ${result.reason}`;
      process.stderr.write(`[bench] ${mode} c=${concurrency} ${harness}: ${brief}\n`);
    }
  }
}

// Closing note: profiles of the measured passes (in separate children, so profiling never skews
// the table's numbers).
const toProfile = new Set(profileList);
if (autoProfile && modes.includes("http") && missesTarget(rows)) ["ours", "floor"].forEach((h) => toProfile.add(h));
const profiles: { harness: string; concurrency: number; summary: NonNullable<Extract<ChildResult, { status: "ok" }>["profile"]> }[] = [];
if (server && toProfile.size > 0) {
  const concurrency = Math.max(...concurrencyFor("http"));
  const { tasks, warmup } = sizing("http", concurrency);
  mkdirSync(join(resultsDir, "profiles"), { recursive: true });
  for (const harness of toProfile) {
    const path = join(resultsDir, "profiles", `${harness}-http-c${concurrency}.cpuprofile`);
    const r = await runChild({ harness, mode: "http", concurrency, tasks, warmup, repeats: 1, baseURL: server.baseURL, profile: path }, 180_000);
    if (r.status === "ok" && r.profile) profiles.push({ harness, concurrency, summary: r.profile });
    process.stderr.write(`[bench] profiled ${harness} c=${concurrency}: ${r.status === "ok" ? path : r.reason}\n`);
  }
}
server?.proc.kill("SIGTERM");

const meta = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: cpus().length,
  cpuModel: cpus()[0]?.model ?? "",
  turnsPerTask: TURNS,
  repeats,
  durationS: (Date.now() - started) / 1000,
  versions: versions(),
};
process.stdout.write(renderReport(rows, meta));
if (profiles.length > 0) {
  process.stdout.write("\n### Where the time goes (CPU profile of the measured pass, HTTP)\n\n");
  for (const p of profiles) process.stdout.write(`${renderSummary(`${p.harness} at concurrency ${p.concurrency}`, p.summary)}\n\n`);
}
writeFileSync(join(resultsDir, "latest.json"), `${JSON.stringify({ meta, rows, profiles }, null, 2)}\n`);
process.stdout.write(`\nJSON: ${join("bench", "results", "latest.json")}\n`);

function versions(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pkg of ["openai", "@mariozechner/pi-agent-core", "@mariozechner/pi-ai", "ai", "@ai-sdk/openai-compatible", "@openai/agents"]) {
    try {
      const json = JSON.parse(readFileSync(join(here, "..", "node_modules", pkg, "package.json"), "utf8")) as { version: string };
      out[pkg] = json.version;
    } catch {
      out[pkg] = "missing";
    }
  }
  return out;
}
