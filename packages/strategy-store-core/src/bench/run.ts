import type { StrategyInput } from "../record";
import type { StrategyStore } from "../store";
import { labelledSet } from "../conformance/labelled-set";
import { syntheticCorpus } from "./synthetic";

export interface BenchTarget {
  /** Row label, e.g. "sqlite (file, WAL)". */
  name: string;
  /** A store on a fresh, empty database. */
  open(): Promise<StrategyStore>;
  /** Called after the store for one size is closed (drop a schema, delete a file). */
  cleanup?(): Promise<void>;
  /**
   * CPU nanoseconds a database server has spent for this target so far (for PostgreSQL: its one
   * backend process), added to the client's CPU per operation.
   */
  serverCpuNs?(): number;
}

/** A corpus shape: `records` spread evenly over `scopes`. */
export interface BenchLayout {
  records: number;
  scopes: number;
}

export interface BenchOptions {
  layouts?: BenchLayout[];
  putSamples?: number;
  searchSamples?: number;
  /** Progress lines go here (default stderr), keeping stdout for the table. */
  log?: (line: string) => void;
}

export interface BenchRow {
  backend: string;
  records: number;
  scopes: number;
  /** Background load through `putMany`, records per second. */
  loadPerSecond: number;
  /** Single sequential `put`s per second. */
  putPerSecond: number;
  putP50: number;
  putP99: number;
  searchP50: number;
  searchP99: number;
  /**
   * CPU per search, p50/p99: this process (all threads) plus the database server's backend when
   * the target reports it. On a shared machine the wall tail is mostly waiting for a core.
   */
  searchCpuP50: number;
  searchCpuP99: number;
  recallAt3: number;
}

/** 1k, 10k and 100k in one scope, then 1M over 1,000 scopes (1,000 each). */
export const DEFAULT_LAYOUTS: readonly BenchLayout[] = [
  { records: 1_000, scopes: 1 },
  { records: 10_000, scopes: 1 },
  { records: 100_000, scopes: 1 },
  { records: 1_000_000, scopes: 1_000 },
];

const SEED_BATCH = 1000;

/**
 * For each target and layout: bulk-load the background records (`putMany`, one transaction per
 * batch of 1,000), then time single puts and k=3 searches against them (searches go round the
 * scopes), and measure recall@3 of the labelled set stored in its own scope beside them. Prints
 * nothing itself; see `formatBenchTable`.
 */
export async function runStrategyStoreBench(targets: BenchTarget[], options: BenchOptions = {}): Promise<BenchRow[]> {
  const layouts = options.layouts ?? DEFAULT_LAYOUTS;
  const putSamples = options.putSamples ?? 500;
  const searchSamples = options.searchSamples ?? 500;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const corpus = syntheticCorpus();
  const rows: BenchRow[] = [];
  for (const target of targets) {
    for (const layout of layouts) {
      const scopeOf = (n: number) => `bench-${n % layout.scopes}`;
      const label = `${target.name}: ${layout.records.toLocaleString("en-US")} records / ${layout.scopes} scope(s)`;
      const store = await target.open();
      try {
        const started = performance.now();
        for (let from = 0; from < layout.records; from += SEED_BATCH) {
          const count = Math.min(SEED_BATCH, layout.records - from);
          await store.putMany(Array.from({ length: count }, (_, i) => corpus.record(from + i, scopeOf(from + i))));
        }
        const loadSeconds = (performance.now() - started) / 1000;
        log(`${label}: loaded in ${loadSeconds.toFixed(1)} s`);

        const putTimes: number[] = [];
        for (let i = 0; i < putSamples; i++) {
          const n = layout.records + i;
          const record = corpus.record(n, scopeOf(n));
          const t0 = performance.now();
          await store.put(record);
          putTimes.push(performance.now() - t0);
        }
        const searchTimes: number[] = [];
        const searchCpu: number[] = [];
        for (let i = 0; i < searchSamples; i++) {
          const query = corpus.query(i);
          const server0 = target.serverCpuNs?.() ?? 0;
          const c0 = process.cpuUsage();
          const t0 = performance.now();
          await store.search({ scope: scopeOf(i * 7), query, k: 3 });
          searchTimes.push(performance.now() - t0);
          const cpu = process.cpuUsage(c0);
          const server = (target.serverCpuNs?.() ?? 0) - server0;
          searchCpu.push((cpu.user + cpu.system) / 1000 + server / 1e6);
        }

        let found = 0;
        const ids = (await store.putMany(labelledSet.map((entry) => labelledInput(entry)))).map((record) => record.id);
        for (const [i, entry] of labelledSet.entries()) {
          const hits = await store.search({ scope: "labelled", query: entry.query, k: 3 });
          if (hits.some((hit) => hit.record.id === ids[i])) found++;
        }
        rows.push({
          backend: target.name,
          records: layout.records,
          scopes: layout.scopes,
          loadPerSecond: layout.records / loadSeconds,
          putPerSecond: (putSamples * 1000) / putTimes.reduce((sum, t) => sum + t, 0),
          putP50: percentile(putTimes, 0.5),
          putP99: percentile(putTimes, 0.99),
          searchP50: percentile(searchTimes, 0.5),
          searchP99: percentile(searchTimes, 0.99),
          searchCpuP50: percentile(searchCpu, 0.5),
          searchCpuP99: percentile(searchCpu, 0.99),
          recallAt3: found / labelledSet.length,
        });
        log(`${label}: measured`);
      } finally {
        await store.close();
        await target.cleanup?.();
      }
    }
  }
  return rows;
}

function labelledInput(entry: { problem: string; strategy: string }): StrategyInput {
  return { scope: "labelled", problem: entry.problem, strategy: entry.strategy, confidence: 2, source: "bench" };
}

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? Number.NaN;
}

export function formatBenchTable(rows: readonly BenchRow[]): string {
  const header = [
    "backend",
    "records",
    "scopes",
    "load/s",
    "put/s",
    "put p50 ms",
    "put p99 ms",
    "search p50 ms",
    "search p99 ms",
    "search cpu p50 ms",
    "search cpu p99 ms",
    "recall@3",
  ];
  const count = (n: number) => Math.round(n).toLocaleString("en-US");
  const body = rows.map((row) => [
    row.backend,
    count(row.records),
    count(row.scopes),
    count(row.loadPerSecond),
    count(row.putPerSecond),
    row.putP50.toFixed(3),
    row.putP99.toFixed(3),
    row.searchP50.toFixed(3),
    row.searchP99.toFixed(3),
    row.searchCpuP50.toFixed(3),
    row.searchCpuP99.toFixed(3),
    `${(row.recallAt3 * 100).toFixed(1)}% (${Math.round(row.recallAt3 * labelledSet.length)}/${labelledSet.length})`,
  ]);
  const widths = header.map((title, col) => Math.max(title.length, ...body.map((cells) => cells[col]!.length)));
  const line = (cells: string[]) =>
    `| ${cells.map((cell, col) => (col === 0 ? cell.padEnd(widths[col]!) : cell.padStart(widths[col]!))).join(" | ")} |`;
  return [line(header), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...body.map(line)].join("\n");
}

/**
 * Layouts from `STRATEGY_BENCH_LAYOUTS` ("1000x1,1000000x1000": records x scopes), or the defaults;
 * for a quicker look at one size.
 */
export function layoutsFromEnv(value = process.env.STRATEGY_BENCH_LAYOUTS): readonly BenchLayout[] {
  if (value === undefined || value.trim() === "") return DEFAULT_LAYOUTS;
  return value.split(",").map((part) => {
    const match = /^\s*(\d+)x(\d+)\s*$/.exec(part);
    if (!match) throw new Error(`STRATEGY_BENCH_LAYOUTS: "${part}" is not <records>x<scopes>`);
    return { records: Number(match[1]), scopes: Number(match[2]) };
  });
}
