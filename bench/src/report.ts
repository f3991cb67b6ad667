// Markdown rendering of a bench run: one table per mode, the versions measured, and the verdict
// against the target (by CPU: ours ≤ 0.5× the SDK loop, below every peer by CPU and peak RSS).
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
  /** What each child ran before its first measured pass: the larger of the two. */
  warmupRule: WarmupRule;
  durationS: number;
  loadAverage: number;
  versions?: Record<string, string>;
}

/** Ours against the `openai` SDK hand loop, by CPU per turn: at most half of it (#38). */
const TARGET = 0.5;
/** The Anthropic wire's row against its own SDK loop: not above it (its request is still the SDK's per call). */
const ANTHROPIC_TARGET = 1.0;
const fmt = (n: number, d = 0) => n.toFixed(d);
const ratio = (a: number, b: number | undefined) => (b ? `${(a / b).toFixed(2)}×` : "–");
const metOrMissed = (c: number, target = TARGET) =>
  c <= target ? "met" : `MISSED by ${((c - target) * 100).toFixed(0)} %`;

function rowOf(rows: Row[], harness: string, r: Row) {
  const f = rows.find((x) => x.harness === harness && x.mode === r.mode && x.concurrency === r.concurrency);
  return f?.result.status === "ok" ? f.result : undefined;
}
/** A row's SDK loop: the Anthropic wire's rows compare with the `@anthropic-ai/sdk` loop. */
const floorOf = (rows: Row[], r: Row) => rowOf(rows, r.harness.includes("anthropic") ? "anthropic-floor" : "floor", r);
const limitOf = (rows: Row[], r: Row) => rowOf(rows, "limit", r);

/** A harness's CPU per turn over its SDK loop's, at one mode and concurrency; undefined when either is missing. */
export function cpuRatio(rows: Row[], harness: string, mode: Mode, concurrency: number): number | undefined {
  const row = rows.find((x) => x.harness === harness && x.mode === mode && x.concurrency === concurrency);
  if (row?.result.status !== "ok") return undefined;
  const f = floorOf(rows, row);
  return f ? row.result.cpuMsPerTurn / f.cpuMsPerTurn : undefined;
}

function table(rows: Row[], mode: Mode): string {
  const mine = rows.filter((r) => r.mode === mode);
  if (mine.length === 0) return "";
  const out = [
    "| library | conc. | tasks × turns | CPU ms / turn | CPU ÷ SDK loop | CPU ÷ node:http limit | wall ms | " +
      "wall ÷ SDK loop | peak RSS MB |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const r of mine) {
    const res = r.result;
    const tag = r.harness.includes("@") ? ` [${r.harness.split("@")[1]}]` : "";
    const label = (res.label || r.harness) + tag;
    if (res.status !== "ok") {
      out.push(
        `| ${label} | ${r.concurrency} | ${r.tasks} × ${r.turnsPerTask} | ` +
          `${res.status}: ${res.reason.replace(/\|/g, "/")} | | | | | |`,
      );
      continue;
    }
    const f = floorOf(rows, r);
    const l = limitOf(rows, r);
    out.push(
      `| ${label} | ${r.concurrency} | ${r.tasks} × ${r.turnsPerTask} | ${fmt(res.cpuMsPerTurn, 3)} | ` +
        `${ratio(res.cpuMsPerTurn, f?.cpuMsPerTurn)} | ${ratio(res.cpuMsPerTurn, l?.cpuMsPerTurn)} | ` +
        `${fmt(res.wallMs)} | ${ratio(res.wallMs, f?.wallMs)} | ${fmt(res.peakRssMb)} |`,
    );
  }
  return out.join("\n");
}

/** Rows that are bars or another wire, not peers of ours on the OpenAI wire. */
const BARS = new Set(["floor", "limit", "anthropic-floor", "ours-anthropic"]);

/** Per concurrency over HTTP: ours by CPU against the SDK loop, then against every peer by CPU and peak RSS. */
function verdict(rows: Row[]): string {
  const http = rows.filter((r) => r.mode === "http" && r.result.status === "ok");
  const ours = http.filter((r) => r.harness === "ours");
  if (ours.length === 0) return "";
  const lines: string[] = [
    `### Verdict (by CPU, not wall): ours ≤ ${TARGET}× the SDK loop; below every peer by CPU per turn and by peak RSS`,
  ];
  for (const r of ours) {
    if (r.result.status !== "ok") continue;
    const mine = r.result;
    const f = floorOf(rows, r);
    const l = limitOf(rows, r);
    const c = f ? mine.cpuMsPerTurn / f.cpuMsPerTurn : Number.NaN;
    const peers = http.filter((p) => p.concurrency === r.concurrency && p.harness !== "ours" && !BARS.has(p.harness));
    const behindCpu = peers.filter((p) => p.result.status === "ok" && p.result.cpuMsPerTurn <= mine.cpuMsPerTurn);
    const behindRss = peers.filter((p) => p.result.status === "ok" && p.result.peakRssMb <= mine.peakRssMb);
    const names = (list: Row[]) => list.map((p) => p.result.label || p.harness).join(", ");
    lines.push(
      `- c=${r.concurrency}: CPU ${c.toFixed(2)}× the SDK loop (${metOrMissed(c)})` +
        `${l ? `, ${(mine.cpuMsPerTurn / l.cpuMsPerTurn).toFixed(2)}× the node:http limit` : ""}; ` +
        `${behindCpu.length === 0 ? "below every peer by CPU" : `NOT below by CPU: ${names(behindCpu)}`}; ` +
        `${behindRss.length === 0 ? "below every peer by peak RSS" : `NOT below by peak RSS: ${names(behindRss)}`}`,
    );
  }
  for (const r of http.filter((x) => x.harness === "ours-anthropic")) {
    const f = floorOf(rows, r);
    if (r.result.status !== "ok" || !f) continue;
    const c = r.result.cpuMsPerTurn / f.cpuMsPerTurn;
    lines.push(
      `- Anthropic wire, c=${r.concurrency}: CPU ${c.toFixed(2)}× the @anthropic-ai/sdk loop ` +
        `(goal ≤ ${ANTHROPIC_TARGET}×: ${metOrMissed(c, ANTHROPIC_TARGET)})`,
    );
  }
  return lines.join("\n");
}

/** True when ours ran over HTTP and costs more CPU per turn than the SDK loop, or than a peer. */
export function missesTarget(rows: Row[]): boolean {
  const http = rows.filter((r) => r.mode === "http" && r.result.status === "ok");
  return http
    .filter((r) => r.harness === "ours")
    .some((r) => {
      if (r.result.status !== "ok") return false;
      const mine = r.result.cpuMsPerTurn;
      const f = floorOf(rows, r);
      if (f && mine / f.cpuMsPerTurn > TARGET) return true;
      return http.some(
        (p) =>
          p.concurrency === r.concurrency &&
          p.harness !== "ours" &&
          !BARS.has(p.harness) &&
          p.result.status === "ok" &&
          p.result.cpuMsPerTurn <= mine,
      );
    });
}

/** A warm-up of `passes` passes' worth of tasks, or `tasks` if that is more. */
export interface WarmupRule {
  passes: number;
  tasks: number;
}

const warmupText = ({ passes, tasks }: WarmupRule) =>
  (passes === 1 ? "a pass's tasks" : `${passes}× a pass's tasks`) +
  (tasks > 0 ? ` and at least ${tasks.toLocaleString("en")} tasks` : "");

export function renderReport(rows: Row[], meta: Meta): string {
  const parts = [
    `## Agent loop bench — ${meta.date}`,
    `Node ${meta.node}, ${meta.cpus} × ${meta.cpuModel}. Each row: its own child process (one library), warmed up ` +
      `on ${warmupText(meta.warmupRule)} (no forced GC, V8's memory reducer off: a steady ` +
      `process), then ${meta.repeats} measured passes (${3 * meta.repeats} at c=1, whose passes are short) taken in ` +
      "rounds interleaved with the other libraries at the same " +
      "concurrency; the table shows the best pass (on a shared machine the least disturbed one; medians are in the " +
      `JSON). ${meta.turnsPerTask} model turns per task (${meta.turnsPerTask - 1} lookup tool calls, then a final ` +
      "answer). CPU is the child's user+system time (all its threads) over the pass; peak RSS is the child's maxRSS. " +
      `Took ${fmt(meta.durationS)} s; load average at the end ${meta.loadAverage.toFixed(1)} on ${meta.cpus} cores ` +
      "(shared machine: wall times move with it, CPU per turn much less).",
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
        `Server CPU per request: ${Math.min(...perTurn).toFixed(3)}–${Math.max(...perTurn).toFixed(3)} ms ` +
          `(its own process); requests rejected as not matching the script: ${rejected}.`,
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
