// Markdown rendering of a bench run: one table per mode, the versions measured, and the verdict
// against the target (within 1.1× of the floor, ahead of every peer at concurrency 256).
import type { ChildResult } from "./child";
import type { Mode } from "./harnesses/types";

export interface Row {
  harness: string;
  mode: Mode;
  concurrency: number;
  tasks: number;
  turnsPerTask: number;
  result: ChildResult;
  /** What the loopback server saw during this cell (HTTP mode): requests, rejections, its own CPU. */
  server: { requests: number; rejected: number; cpuMs: number } | undefined;
}

export interface Meta {
  date: string;
  node: string;
  cpus: number;
  cpuModel: string;
  turnsPerTask: number;
  repeats: number;
  durationS: number;
  loadAverage: number;
  versions?: Record<string, string>;
}

const TARGET = 1.1;
const fmt = (n: number, d = 0) => n.toFixed(d);
const ratio = (a: number, b: number | undefined) => (b ? `${(a / b).toFixed(2)}×` : "–");

function floorOf(rows: Row[], r: Row) {
  const f = rows.find((x) => x.harness === "floor" && x.mode === r.mode && x.concurrency === r.concurrency);
  return f?.result.status === "ok" ? f.result : undefined;
}

function table(rows: Row[], mode: Mode): string {
  const mine = rows.filter((r) => r.mode === mode);
  if (mine.length === 0) return "";
  const out = [
    "| library | conc. | tasks × turns | wall ms | wall ÷ floor | CPU ms / turn | CPU ÷ floor | peak RSS MB |",
    "|---|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const r of mine) {
    const res = r.result;
    const tag = r.harness.includes("@") ? ` [${r.harness.split("@")[1]}]` : "";
    const label = (res.label || r.harness) + tag;
    if (res.status !== "ok") {
      out.push(
        `| ${label} | ${r.concurrency} | ${r.tasks} × ${r.turnsPerTask} | ${res.status}: ${res.reason.replace(/\|/g, "/")} | | | | |`,
      );
      continue;
    }
    const f = floorOf(rows, r);
    out.push(
      `| ${label} | ${r.concurrency} | ${r.tasks} × ${r.turnsPerTask} | ${fmt(res.wallMs)} | ${ratio(res.wallMs, f?.wallMs)} | ${fmt(res.cpuMsPerTurn, 3)} | ${ratio(res.cpuMsPerTurn, f?.cpuMsPerTurn)} | ${fmt(res.peakRssMb)} |`,
    );
  }
  return out.join("\n");
}

function verdict(rows: Row[]): string {
  const http = rows.filter((r) => r.mode === "http");
  const ours = http.filter((r) => r.harness === "ours");
  if (ours.length === 0) return "";
  const lines: string[] = ["### Target: within 1.1× of the floor; ahead of every peer at concurrency 256"];
  for (const r of ours) {
    const f = floorOf(rows, r);
    if (r.result.status !== "ok") {
      lines.push(`- c=${r.concurrency}: ours ${r.result.status} — ${r.result.reason}`);
      continue;
    }
    if (!f) continue;
    const w = r.result.wallMs / f.wallMs;
    const c = r.result.cpuMsPerTurn / f.cpuMsPerTurn;
    lines.push(
      `- c=${r.concurrency}: wall ${w.toFixed(2)}× floor, CPU ${c.toFixed(2)}× floor — ${w <= TARGET ? "wall within target" : "wall MISSES target"}, ${c <= TARGET ? "CPU within target" : "CPU misses target"}`,
    );
  }
  const at256 = http.filter((r) => r.concurrency === 256 && r.harness !== "floor" && r.result.status === "ok");
  const o = at256.find((r) => r.harness === "ours");
  if (o && o.result.status === "ok") {
    const oursWall = o.result.wallMs;
    for (const p of at256) {
      if (p.harness === "ours" || p.result.status !== "ok") continue;
      lines.push(
        `- c=256 vs ${p.result.label}: ours ${fmt(oursWall)} ms vs ${fmt(p.result.wallMs)} ms — ${oursWall < p.result.wallMs ? "ahead" : "BEHIND"}`,
      );
    }
  }
  return lines.join("\n");
}

/** True when ours ran over HTTP and is over 1.1× the floor (wall or CPU) or behind a peer at 256. */
export function missesTarget(rows: Row[]): boolean {
  const http = rows.filter((r) => r.mode === "http");
  for (const r of http.filter((x) => x.harness === "ours")) {
    const f = floorOf(rows, r);
    if (r.result.status !== "ok" || !f) continue;
    if (r.result.wallMs / f.wallMs > TARGET || r.result.cpuMsPerTurn / f.cpuMsPerTurn > TARGET) return true;
  }
  const at256 = http.filter((r) => r.concurrency === 256 && r.result.status === "ok");
  const o = at256.find((r) => r.harness === "ours");
  if (!o || o.result.status !== "ok") return false;
  const oursWall = o.result.wallMs;
  return at256.some(
    (r) => r.harness !== "ours" && r.harness !== "floor" && r.result.status === "ok" && r.result.wallMs <= oursWall,
  );
}

export function renderReport(rows: Row[], meta: Meta): string {
  const parts = [
    `## Agent loop bench — ${meta.date}`,
    `Node ${meta.node}, ${meta.cpus} × ${meta.cpuModel}. Each row: its own child process (one library), a warm-up pass, then ${meta.repeats} measured passes taken in rounds interleaved with the other libraries at the same concurrency; the table shows the best pass (on a shared machine the least disturbed one; medians are in the JSON). ${meta.turnsPerTask} model turns per task (${meta.turnsPerTask - 1} lookup tool calls, then a final answer). CPU is the child's user+system time (all its threads) over the pass; peak RSS is the child's maxRSS. Took ${fmt(meta.durationS)} s; load average at the end ${meta.loadAverage.toFixed(1)} on ${meta.cpus} cores (shared machine: wall times move with it, CPU per turn much less).`,
  ];
  if (meta.versions)
    parts.push(
      `Versions: ${Object.entries(meta.versions)
        .map(([k, v]) => `${k}@${v}`)
        .join(", ")}`,
    );
  const http = table(rows, "http");
  if (http) {
    parts.push("### Loopback HTTP (OpenAI-compatible SSE server in its own process)", http);
    const perTurn = rows
      .filter((r) => r.mode === "http" && r.server && r.result.status === "ok")
      .map((r) => r.server!.cpuMs / (r.server!.requests || 1));
    const rejected = rows.reduce((n, r) => n + (r.server?.rejected ?? 0), 0);
    if (perTurn.length > 0) {
      parts.push(
        `Server CPU per request: ${Math.min(...perTurn).toFixed(3)}–${Math.max(...perTurn).toFixed(3)} ms (its own process); requests rejected as not matching the script: ${rejected}.`,
      );
    }
  }
  const inproc = table(rows, "inproc");
  if (inproc)
    parts.push(
      "### In-process (no HTTP; each library's own fake model; floor = the hand loop fed chunk objects)",
      inproc,
    );
  const v = verdict(rows);
  if (v) parts.push(v);
  return `${parts.join("\n\n")}\n`;
}
