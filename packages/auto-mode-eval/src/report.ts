import type { CaseResult } from "./case-result";
import type { Recording } from "./recording";
import { wilson, type Proportion } from "./wilson";

/** FPR and FNR over a group of cases: a call that should run but did not, one that should be blocked but ran. */
export interface ErrorRates {
  cases: number;
  /** Should run, but auto mode did not let it (blocked, or could not rule and failed closed). */
  falsePositive: Proportion;
  /** Should be blocked, but auto mode let it run. */
  falseNegative: Proportion;
}

/** Nearest-rank percentiles of a per-decision figure. */
export interface Spread {
  p50: number;
  p95: number;
  total: number;
}

export interface EvalReport {
  model: string;
  datasets: Array<{ name: string; source: string; licence: string; commit?: string }>;
  split: "dev" | "heldout" | "all";
  /** The figures come from a recording, not a live endpoint. */
  replayed: boolean;
  /** The classifier prompt: `built-in`, or `sha256:<16 hex>` of the replacement given. */
  prompt: string;
  overall: ErrorRates;
  byCategory: Record<string, ErrorRates>;
  counts: { unavailable: number; parseError: number; fallback: number; reasked: number; byRule: number; calls: number };
  /** Micro-dollars per decision. */
  cost: Spread;
  /** Milliseconds per decision (the classifier's, rule decisions included at 0). */
  latency: Spread;
  /** The cases auto mode got wrong, in input order. */
  disagreements: CaseResult[];
  results: CaseResult[];
  recording?: Recording;
}

function rates(results: readonly CaseResult[]): ErrorRates {
  const shouldRun = results.filter((r) => r.label === "allow");
  const shouldBlock = results.filter((r) => r.label === "block");
  return {
    cases: results.length,
    falsePositive: wilson(shouldRun.filter((r) => r.decided === "block").length, shouldRun.length),
    falseNegative: wilson(shouldBlock.filter((r) => r.decided === "allow").length, shouldBlock.length),
  };
}

function spread(values: readonly number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (q: number) => sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)] ?? 0;
  return { p50: rank(0.5), p95: rank(0.95), total: sorted.reduce((sum, v) => sum + v, 0) };
}

/** The figures of one evaluation, from its per-case results. */
export function summarise(args: {
  model: string;
  datasets: EvalReport["datasets"];
  split: EvalReport["split"];
  replayed: boolean;
  prompt: string;
  results: CaseResult[];
  recording?: Recording;
}): EvalReport {
  const { results } = args;
  const categories = [...new Set(results.map((r) => r.category))].sort();
  return {
    model: args.model,
    datasets: args.datasets,
    split: args.split,
    replayed: args.replayed,
    prompt: args.prompt,
    overall: rates(results),
    byCategory: Object.fromEntries(categories.map((c) => [c, rates(results.filter((r) => r.category === c))])),
    counts: {
      unavailable: results.filter((r) => r.verdict === "unavailable").length,
      parseError: results.filter((r) => r.verdict === "parse_error").length,
      fallback: results.filter((r) => r.fallback).length,
      reasked: results.filter((r) => r.reasked).length,
      byRule: results.filter((r) => r.source === "rule").length,
      calls: results.reduce((sum, r) => sum + r.calls, 0),
    },
    cost: spread(results.map((r) => r.costMicroUsd)),
    latency: spread(results.map((r) => r.wallMs)),
    disagreements: results.filter((r) => r.decided !== r.label),
    results,
    ...(args.recording ? { recording: args.recording } : {}),
  };
}

const pct = (value: number | undefined) => (value === undefined ? "n/a" : `${(value * 100).toFixed(1)} %`);

function rate(p: Proportion): string {
  if (p.of === 0) return "n/a (no case)";
  return `${pct(p.rate)} (${p.count}/${p.of}; 95 % CI ${pct(p.low)}–${pct(p.high)})`;
}

const usd = (micro: number) => `$${(micro / 1_000_000).toFixed(6)}`;

/**
 * The report as text: the same report gives the same bytes (no clock, no host name, fixed
 * rounding), so a published figure and its replay can be compared with `diff`.
 */
export function formatReport(report: EvalReport): string {
  const lines: string[] = [];
  lines.push(
    `auto-mode evaluation — classifier ${report.model}${report.replayed ? " (replayed from a recording)" : ""}`,
  );
  for (const set of report.datasets)
    lines.push(`  dataset ${set.name}: ${set.source}${set.commit ? ` @ ${set.commit}` : ""} (${set.licence})`);
  lines.push(`  classifier prompt: ${report.prompt}`);
  lines.push(`  split: ${report.split}; cases: ${report.overall.cases}; classifier calls: ${report.counts.calls}`);
  lines.push("");
  lines.push(`false-positive rate (should run, not run): ${rate(report.overall.falsePositive)}`);
  lines.push(`false-negative rate (should block, ran):   ${rate(report.overall.falseNegative)}`);
  lines.push("");
  lines.push("per category:");
  for (const [category, r] of Object.entries(report.byCategory))
    lines.push(`  ${category} (${r.cases}): FPR ${rate(r.falsePositive)}; FNR ${rate(r.falseNegative)}`);
  lines.push("");
  const c = report.counts;
  lines.push(
    `could not rule: ${c.unavailable} unavailable, ${c.parseError} without a clean verdict (both fail closed); ` +
      `fell back to the next rung: ${c.fallback}; asked again: ${c.reasked}; decided by a host rule: ${c.byRule}`,
  );
  lines.push(
    `cost per decision: p50 ${usd(report.cost.p50)}, p95 ${usd(report.cost.p95)}; total ${usd(report.cost.total)}`,
  );
  lines.push(`latency per decision: p50 ${report.latency.p50} ms, p95 ${report.latency.p95} ms`);
  lines.push("");
  lines.push(`disagreements (${report.disagreements.length}):`);
  for (const d of report.disagreements) {
    const why = d.ruleId ? `rule ${d.ruleId}` : d.reason ? d.reason : d.verdict;
    lines.push(`  ${d.key} [${d.category}] should ${d.label === "allow" ? "run" : "block"}, got ${d.verdict}: ${why}`);
  }
  return `${lines.join("\n")}\n`;
}
