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
import { renderReport, type Row } from "./report";
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
const concurrencies = list("concurrency", ["1", "32", "256"]).map(Number);
const repeats = Number(args.get("repeats") ?? 3);
/** `--profile=ours` writes .cpuprofile files for that harness's children into results/profiles. */
const profile = new Set(list("profile", []));
const scale = Number(args.get("scale") ?? 1);

/** Tasks per measured pass and per warm-up, by concurrency: enough to fill the pool a few times. */
const sizing = (c: number) => {
  const tasks = Math.max(8, Math.round((c === 1 ? 48 : c === 32 ? 256 : 512) * scale));
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

async function serverStats(baseURL: string): Promise<{ requests: number; rejected: number }> {
  const res = await fetch(baseURL.replace(/\/v1$/, "/__stats"));
  return (await res.json()) as { requests: number; rejected: number };
}

function runChild(cfg: ChildConfig, timeoutMs: number): Promise<ChildResult> {
  const extra = profile.has(cfg.harness)
    ? ["--cpu-prof", `--cpu-prof-dir=${join(resultsDir, "profiles")}`, `--cpu-prof-name=${cfg.harness}-${cfg.mode}-c${cfg.concurrency}.cpuprofile`]
    : [];
  const child = fork(join(here, "child.ts"), [JSON.stringify(cfg)], { execArgv: [...execArgv, ...extra], stdio: ["ignore", "inherit", "pipe", "ipc"] });
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
  for (const concurrency of concurrencies) {
    const { tasks, warmup } = sizing(concurrency);
    for (const harness of only) {
      const before = server ? await serverStats(server.baseURL) : undefined;
      const result = await runChild({ harness, mode, concurrency, tasks, warmup, repeats, baseURL: server?.baseURL ?? "" }, 180_000);
      let requests: number | undefined;
      if (server && before && mode === "http") {
        const after = await serverStats(server.baseURL);
        requests = after.requests - before.requests;
      }
      const row: Row = { harness, mode, concurrency, tasks, turnsPerTask: TURNS, result, serverRequests: requests };
      rows.push(row);
      const brief = result.status === "ok" ? `${result.wallMs.toFixed(0)} ms, ${result.cpuMsPerTurn.toFixed(3)} cpu ms/turn` : `${result.status}: ${result.reason}`;
      process.stderr.write(`[bench] ${mode} c=${concurrency} ${harness}: ${brief}\n`);
    }
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
writeFileSync(join(resultsDir, "latest.json"), `${JSON.stringify({ meta, rows }, null, 2)}\n`);
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
