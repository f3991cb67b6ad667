// CPU profile of the measured passes only (the inspector's sampling profiler, not --cpu-prof, so
// module loading and transpiling stay out), and a summary of where the samples fall: by package and
// by function, self time.
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export async function startProfiler(): Promise<() => Promise<CpuProfile>> {
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 200 });
  await session.post("Profiler.start");
  return async () => {
    const { profile } = (await session.post("Profiler.stop")) as unknown as { profile: CpuProfile };
    session.disconnect();
    return profile;
  };
}

export function saveProfile(path: string, profile: CpuProfile) {
  writeFileSync(path, JSON.stringify(profile));
}

/** Where a frame's code lives: one of our packages, an npm package, node itself, or V8's buckets. */
export function areaOf(url: string, fn: string): string {
  if (!url) return fn.startsWith("(") ? fn : "(native/builtin)";
  // Our packages, built or from source, or their copies for A/B runs (bench/ab).
  const ours = /\/packages\/([^/]+)\//.exec(url) ?? /\/results\/exp\/[a-z]+\/([^/]+)\/dist\//.exec(url);
  if (ours && !url.includes("node_modules")) return `@x/${ours[1]}`;
  const nm = url.lastIndexOf("node_modules/");
  if (nm >= 0) {
    const rest = url.slice(nm + "node_modules/".length).split("/");
    return rest[0]!.startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  if (url.startsWith("node:"))
    return url.startsWith("node:internal/deps/undici") ? "node:undici (fetch)" : "node:internals";
  if (url.includes("/bench/src/")) return "bench harness";
  return url;
}

export interface ProfileSummary {
  totalMs: number;
  areas: { area: string; ms: number; pct: number }[];
  functions: { fn: string; area: string; ms: number; pct: number }[];
  /** Our packages' functions by inclusive time (themselves and all they call, SDK and GC aside). */
  oursInclusive: { fn: string; area: string; ms: number; pct: number }[];
}

export function summarize(profile: CpuProfile, top = 15): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  // The first delta runs from Profiler.start to the first sample, not between two samples: whatever
  // the thread did (or waited for) before sampling began would land on that one sample.
  profile.samples.forEach((id, i) => {
    if (i > 0) self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const areas = new Map<string, number>();
  const fns = new Map<string, { area: string; us: number }>();
  let total = 0;
  for (const [id, us] of self) {
    const n = byId.get(id);
    if (!n || n.callFrame.functionName === "(idle)") continue;
    total += us;
    const area = areaOf(n.callFrame.url, n.callFrame.functionName);
    areas.set(area, (areas.get(area) ?? 0) + us);
    const file = n.callFrame.url.split("/").slice(-1)[0] ?? "";
    const key = `${n.callFrame.functionName || "(anonymous)"} ${file}:${n.callFrame.lineNumber + 1}`;
    const f = fns.get(key) ?? { area, us: 0 };
    f.us += us;
    fns.set(key, f);
  }
  const pct = (us: number) => (total ? (100 * us) / total : 0);
  // Inclusive time of @x functions: walk each sampled node's ancestors, counting a function once.
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const inclusive = new Map<string, { area: string; us: number }>();
  for (const [id, us] of self) {
    if (byId.get(id)?.callFrame.functionName === "(idle)") continue;
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const f = byId.get(cur)!.callFrame;
      const area = areaOf(f.url, f.functionName);
      if (!area.startsWith("@x/") || !f.functionName) continue;
      const key = `${f.functionName}\u0000${area}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const e = inclusive.get(key) ?? { area, us: 0 };
      e.us += us;
      inclusive.set(key, e);
    }
  }
  return {
    totalMs: total / 1000,
    areas: [...areas].sort((a, b) => b[1] - a[1]).map(([area, us]) => ({ area, ms: us / 1000, pct: pct(us) })),
    functions: [...fns]
      .sort((a, b) => b[1].us - a[1].us)
      .slice(0, top)
      .map(([fn, f]) => ({ fn, area: f.area, ms: f.us / 1000, pct: pct(f.us) })),
    oursInclusive: [...inclusive]
      .sort((a, b) => b[1].us - a[1].us)
      .slice(0, top)
      .map(([key, f]) => ({ fn: key.split("\u0000")[0]!, area: f.area, ms: f.us / 1000, pct: pct(f.us) })),
  };
}

/**
 * The profile as markdown. With `ratio` (the pass's CPU per turn over the SDK loop's, as the tables
 * measured it), each area also shows its part of that ratio: where each 0.1× of it goes.
 */
export function renderSummary(title: string, s: ProfileSummary, ratio?: number): string {
  const share = ratio === undefined ? undefined : (pct: number) => `${((pct / 100) * ratio).toFixed(3)}×`;
  const lines = [
    `#### ${title} — ${s.totalMs.toFixed(0)} ms of samples (self time)`,
    "",
    share ? `| where | ms | % | of the ${ratio!.toFixed(2)}× the SDK loop |` : "| where | ms | % |",
    share ? "|---|---:|---:|---:|" : "|---|---:|---:|",
  ];
  for (const a of s.areas.slice(0, 12))
    lines.push(`| ${a.area} | ${a.ms.toFixed(0)} | ${a.pct.toFixed(1)} |${share ? ` ${share(a.pct)} |` : ""}`);
  lines.push("", "| hottest functions | where | ms | % |", "|---|---|---:|---:|");
  for (const f of s.functions) lines.push(`| \`${f.fn}\` | ${f.area} | ${f.ms.toFixed(0)} | ${f.pct.toFixed(1)} |`);
  if (s.oursInclusive.length > 0) {
    lines.push("", "| our functions, inclusive (with what they call) | where | ms | % |", "|---|---|---:|---:|");
    for (const f of s.oursInclusive)
      lines.push(`| \`${f.fn}\` | ${f.area} | ${f.ms.toFixed(0)} | ${f.pct.toFixed(1)} |`);
  }
  return lines.join("\n");
}
