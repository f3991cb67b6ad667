import { loadavg } from "node:os";
import type { StrategyInput } from "../record";
import type { StrategyStore } from "../store";
import { labelledSet } from "../conformance/labelled-set";
import { syntheticCorpus } from "./synthetic";

export interface BenchTarget {
  /** Row label, e.g. "sqlite (file, WAL)". */
  name: string;
  /**
   * A store on the database kept for `dataset` (one per layout, e.g. "100000-in-1-scope"), empty
   * the first time.
   */
  open(dataset: string): Promise<StrategyStore>;
  /**
   * Background records `dataset`'s database already holds (loaded by an earlier cell, or by an
   * earlier run when the target keeps its databases); 0 for a new one.
   */
  loaded(dataset: string): Promise<number>;
  /** Notes that `dataset` now holds `records` background records. */
  setLoaded(dataset: string, records: number): Promise<void>;
  /** Called after a dataset's last cell, its store closed: drop it unless kept. */
  release?(dataset: string): Promise<void>;
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
  layouts?: readonly BenchLayout[];
  putSamples?: number;
  searchSamples?: number;
  /**
   * Seconds one cell may spend loading (default 1,800). Past it the load stops where it is (kept
   * for the next run when the target keeps databases) and the cell is reported as not measured.
   */
  loadBudgetSeconds?: number;
  /** Progress lines go here (default stderr), keeping stdout for the table. */
  log?: (line: string) => void;
}

export interface BenchRow {
  backend: string;
  records: number;
  scopes: number;
  /** Background load through `putMany`, records per second; undefined when the database was reused as built. */
  loadPerSecond: number | undefined;
  /** `putMany` of {@link BULK_BATCH} records per second, timed on the loaded database. */
  putManyPerSecond: number;
  /** Single sequential `put`s per second. */
  putPerSecond: number;
  putP50: number;
  putP99: number;
  /** CPU per single put, p50, counted as for searches: what a put costs when it need not wait for the disk. */
  putCpuP50: number;
  searchP50: number;
  searchP99: number;
  /**
   * CPU per search, p50/p99: this process (all threads) plus the database server's backend when
   * the target reports it. On a shared machine the wall tail is mostly waiting for a core.
   */
  searchCpuP50: number;
  searchCpuP99: number;
  recallAt3: number;
  /** 1-minute load average when the cell's searches ended (the machine is shared). */
  loadAverage: number;
}

/** 1k, 10k and 100k in one scope, then 1M over 1,000 scopes (1,000 each). */
export const DEFAULT_LAYOUTS: readonly BenchLayout[] = [
  { records: 1_000, scopes: 1 },
  { records: 10_000, scopes: 1 },
  { records: 100_000, scopes: 1 },
  { records: 1_000_000, scopes: 1_000 },
];

/** Records per `putMany` while loading. */
export const LOAD_BATCH = 5_000;

/** Records in the one timed `putMany` of a cell. */
export const BULK_BATCH = 1_000;

// Sampled records are numbered from here, apart from the background corpus, and deleted after
// their cell, so a kept database returns to exactly what was loaded.
const SAMPLE_BASE = 1_000_000_000;

// 500, not 50: the optimising compiler and the database's caches were still settling well past 50
// (SQLite's p99 per block of 500 searches fell from 10.3 to 5.6 ms over the first 2,000), so a p99
// after 50 measured the warm-up more than a serving process.
const WARMUP_SEARCHES = 500;
const WARMUP_BASE = 1_000_000;

// Untimed puts before the timed ones, for the same reason: on a kept database, opened cold, the
// timed puts otherwise measured the disk (SQLite at 1M records: 349 puts/s cold, 2,947 warm).
const WARMUP_PUTS = 200;
const PUT_WARMUP_BASE = 1_500_000_000;

// Each layout has a database of its own, loaded scope after scope as an import of tenants would be
// (a batch spread over every scope rewrites most of the index). One database grown from 1k to 100k
// saved a tenth of the loading, but a kept one then held 100k and the 1k and 10k cells were skipped.
const datasetOf = (layout: BenchLayout) =>
  `${layout.records}-in-${layout.scopes}-scope${layout.scopes === 1 ? "" : "s"}`;

/**
 * For each target and layout: bulk-load the background records (`putMany` of {@link LOAD_BATCH},
 * one transaction each) on top of what the dataset already holds, then time single puts, one bulk
 * `putMany` and k=3 searches against them (searches go round the scopes), and measure recall@3 of
 * the labelled set stored in its own scope beside them. What a cell adds besides the background is
 * deleted again. Prints nothing itself; see `formatBenchTable`.
 */
export async function runStrategyStoreBench(targets: BenchTarget[], options: BenchOptions = {}): Promise<BenchRow[]> {
  const layouts = [...(options.layouts ?? DEFAULT_LAYOUTS)].sort(
    (a, b) => a.scopes - b.scopes || a.records - b.records,
  );
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const rows: BenchRow[] = [];
  for (const target of targets) {
    for (const dataset of new Set(layouts.map(datasetOf))) {
      try {
        for (const layout of layouts.filter((one) => datasetOf(one) === dataset)) {
          const row = await measureCell(target, layout, options, log);
          if (row) rows.push(row);
          if (row) log(formatBenchTable([row]).split("\n")[2]!);
        }
      } finally {
        await target.release?.(dataset);
      }
    }
  }
  return rows;
}

async function measureCell(
  target: BenchTarget,
  layout: BenchLayout,
  options: BenchOptions,
  log: (line: string) => void,
): Promise<BenchRow | undefined> {
  const putSamples = options.putSamples ?? 500;
  const searchSamples = options.searchSamples ?? 500;
  const budgetMs = (options.loadBudgetSeconds ?? 1_800) * 1000;
  const corpus = syntheticCorpus();
  const dataset = datasetOf(layout);
  const perScope = Math.ceil(layout.records / layout.scopes);
  const scopeOfRecord = (n: number) => `bench-${Math.floor(n / perScope)}`;
  const scopeOf = (n: number) => `bench-${n % layout.scopes}`;
  const label = `${target.name}: ${layout.records.toLocaleString("en-US")} records / ${layout.scopes} scope(s)`;
  const already = await target.loaded(dataset);
  if (already > layout.records) {
    log(`${label}: skipped, the kept database already holds ${already.toLocaleString("en-US")} records`);
    return undefined;
  }
  const store = await target.open(dataset);
  try {
    const started = performance.now();
    let loaded = already;
    while (loaded < layout.records && performance.now() - started < budgetMs) {
      const count = Math.min(LOAD_BATCH, layout.records - loaded);
      await store.putMany(
        Array.from({ length: count }, (_, i) => corpus.record(loaded + i, scopeOfRecord(loaded + i))),
      );
      loaded += count;
    }
    const loadSeconds = (performance.now() - started) / 1000;
    await target.setLoaded(dataset, loaded);
    if (loaded < layout.records) {
      log(
        `${label}: NOT MEASURED, load budget spent at ${loaded.toLocaleString("en-US")} records ` +
          "(kept if the target keeps databases)",
      );
      return undefined;
    }
    log(
      `${label}: ${
        loaded > already
          ? `loaded ${(loaded - already).toLocaleString("en-US")} in ${loadSeconds.toFixed(1)} s`
          : "reused as built"
      }`,
    );

    const warmed: Array<{ scope: string; id: string }> = [];
    for (let i = 0; i < WARMUP_PUTS; i++) {
      const scope = scopeOf(i * 7 + 3);
      warmed.push({ scope, id: (await store.put(corpus.record(PUT_WARMUP_BASE + i, scope))).id });
    }
    const sampleIds: string[] = [];
    const putTimes: number[] = [];
    const putCpu: number[] = [];
    for (let i = 0; i < putSamples; i++) {
      const record = corpus.record(SAMPLE_BASE + i, scopeOf(i));
      const cpu = cpuMeter(target);
      const t0 = performance.now();
      sampleIds.push((await store.put(record)).id);
      putTimes.push(performance.now() - t0);
      putCpu.push(cpu());
    }
    const bulk = Array.from({ length: BULK_BATCH }, (_, i) => corpus.record(SAMPLE_BASE + putSamples + i, scopeOf(i)));
    const bulk0 = performance.now();
    sampleIds.push(...(await store.putMany(bulk)).map((record) => record.id));
    const bulkSeconds = (performance.now() - bulk0) / 1000;

    // Untimed searches first (queries the timed ones do not use): compiling the search path and
    // reading a freshly opened database's pages would otherwise be most of a 500-sample p99.
    for (let i = 0; i < WARMUP_SEARCHES; i++) {
      await store.search({ scope: scopeOf(i * 13), query: corpus.query(WARMUP_BASE + i), k: 3 });
    }
    const searchTimes: number[] = [];
    const searchCpu: number[] = [];
    for (let i = 0; i < searchSamples; i++) {
      const query = corpus.query(i);
      const cpu = cpuMeter(target);
      const t0 = performance.now();
      await store.search({ scope: scopeOf(i * 7), query, k: 3 });
      searchTimes.push(performance.now() - t0);
      searchCpu.push(cpu());
    }
    const loadAverage = loadavg()[0]!;

    const labelled = `labelled-${layout.records}x${layout.scopes}`;
    const ids = (await store.putMany(labelledSet.map((entry) => labelledInput(labelled, entry)))).map((r) => r.id);
    let found = 0;
    for (const [i, entry] of labelledSet.entries()) {
      const hits = await store.search({ scope: labelled, query: entry.query, k: 3 });
      if (hits.some((hit) => hit.record.id === ids[i])) found++;
    }
    for (const id of ids) await store.delete(labelled, id);
    for (const [i, id] of sampleIds.entries()) await store.delete(scopeOf(i < putSamples ? i : i - putSamples), id);
    for (const { scope, id } of warmed) await store.delete(scope, id);
    log(`${label}: measured`);
    return {
      backend: target.name,
      records: layout.records,
      scopes: layout.scopes,
      loadPerSecond: loaded > already ? (loaded - already) / loadSeconds : undefined,
      putManyPerSecond: BULK_BATCH / bulkSeconds,
      putPerSecond: (putSamples * 1000) / putTimes.reduce((sum, t) => sum + t, 0),
      putP50: percentile(putTimes, 0.5),
      putP99: percentile(putTimes, 0.99),
      putCpuP50: percentile(putCpu, 0.5),
      searchP50: percentile(searchTimes, 0.5),
      searchP99: percentile(searchTimes, 0.99),
      searchCpuP50: percentile(searchCpu, 0.5),
      searchCpuP99: percentile(searchCpu, 0.99),
      recallAt3: found / labelledSet.length,
      loadAverage,
    };
  } finally {
    await store.close();
  }
}

/** Starts counting CPU milliseconds (this process plus the target's server); the returned function reads them. */
function cpuMeter(target: BenchTarget): () => number {
  const server0 = target.serverCpuNs?.() ?? 0;
  const c0 = process.cpuUsage();
  return () => {
    const cpu = process.cpuUsage(c0);
    return (cpu.user + cpu.system) / 1000 + ((target.serverCpuNs?.() ?? 0) - server0) / 1e6;
  };
}

function labelledInput(scope: string, entry: { problem: string; strategy: string }): StrategyInput {
  return { scope, problem: entry.problem, strategy: entry.strategy, confidence: 2, source: "bench" };
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
    "putMany/s",
    "put/s",
    "put p50 ms",
    "put p99 ms",
    "put cpu p50 ms",
    "search p50 ms",
    "search p99 ms",
    "search cpu p50 ms",
    "search cpu p99 ms",
    "recall@3",
    "load avg",
  ];
  const count = (n: number) => Math.round(n).toLocaleString("en-US");
  const body = rows.map((row) => [
    row.backend,
    count(row.records),
    count(row.scopes),
    row.loadPerSecond === undefined ? "reused" : count(row.loadPerSecond),
    count(row.putManyPerSecond),
    count(row.putPerSecond),
    row.putP50.toFixed(3),
    row.putP99.toFixed(3),
    row.putCpuP50.toFixed(3),
    row.searchP50.toFixed(3),
    row.searchP99.toFixed(3),
    row.searchCpuP50.toFixed(3),
    row.searchCpuP99.toFixed(3),
    `${(row.recallAt3 * 100).toFixed(1)}% (${Math.round(row.recallAt3 * labelledSet.length)}/${labelledSet.length})`,
    row.loadAverage.toFixed(1),
  ]);
  const widths = header.map((title, col) => Math.max(title.length, ...body.map((cells) => cells[col]!.length)));
  const line = (cells: string[]) =>
    `| ${cells
      .map((cell, col) => (col === 0 ? cell.padEnd(widths[col]!) : cell.padStart(widths[col]!)))
      .join(" | ")} |`;
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

/**
 * Where a target keeps its built databases between runs: `STRATEGY_BENCH_KEEP` names a folder
 * (loading 1M records takes minutes; a kept database is measured as built, after what the last
 * run's cell added was deleted again). Unset: nothing is kept.
 */
export function keptFolder(value = process.env.STRATEGY_BENCH_KEEP): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value;
}
