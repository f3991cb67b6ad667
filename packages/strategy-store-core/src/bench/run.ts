import type { StrategyInput } from "../record";
import type { StrategyStore } from "../store";
import { labelledSet } from "../conformance/labelled-set";
import { syntheticCorpus } from "./synthetic";

export interface BenchTarget {
  /** Row label, e.g. "sqlite (file, WAL)". */
  name: string;
  /** A store on a fresh, empty database. */
  open(): Promise<StrategyStore>;
  /** Bulk-loads the background corpus; default is one `put` per record. */
  seed?(store: StrategyStore, records: StrategyInput[]): Promise<void>;
  /** Called after the store for one size is closed (drop a schema, delete a file). */
  cleanup?(): Promise<void>;
}

export interface BenchOptions {
  sizes?: number[];
  putSamples?: number;
  searchSamples?: number;
  /** Progress lines go here (default stderr), keeping stdout for the table. */
  log?: (line: string) => void;
}

export interface BenchRow {
  backend: string;
  records: number;
  putP50: number;
  putP99: number;
  searchP50: number;
  searchP99: number;
  recallAt3: number;
}

const SEED_BATCH = 1000;

/**
 * For each target and size: load `size` background records in one scope, then time single puts
 * and k=3 searches against it, and measure recall@3 of the labelled set stored in its own scope
 * beside them. Prints nothing itself; see `formatBenchTable`.
 */
export async function runStrategyStoreBench(targets: BenchTarget[], options: BenchOptions = {}): Promise<BenchRow[]> {
  const sizes = options.sizes ?? [10_000, 100_000];
  const putSamples = options.putSamples ?? 200;
  const searchSamples = options.searchSamples ?? 200;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const corpus = syntheticCorpus();
  const rows: BenchRow[] = [];
  for (const target of targets) {
    for (const size of sizes) {
      const store = await target.open();
      try {
        const started = performance.now();
        for (let from = 0; from < size; from += SEED_BATCH) {
          const batch = Array.from({ length: Math.min(SEED_BATCH, size - from) }, (_, i) =>
            corpus.record(from + i, "bench"),
          );
          if (target.seed) await target.seed(store, batch);
          else for (const record of batch) await store.put(record);
        }
        log(`${target.name}: loaded ${size} records in ${((performance.now() - started) / 1000).toFixed(1)} s`);

        const putTimes: number[] = [];
        for (let i = 0; i < putSamples; i++) {
          const record = corpus.record(size + i, "bench");
          const t0 = performance.now();
          await store.put(record);
          putTimes.push(performance.now() - t0);
        }
        const searchTimes: number[] = [];
        for (let i = 0; i < searchSamples; i++) {
          const query = corpus.query(i);
          const t0 = performance.now();
          await store.search({ scope: "bench", query, k: 3 });
          searchTimes.push(performance.now() - t0);
        }

        let found = 0;
        const ids: string[] = [];
        for (const entry of labelledSet) {
          ids.push(
            (
              await store.put({
                scope: "labelled",
                problem: entry.problem,
                strategy: entry.strategy,
                confidence: 2,
                source: "bench",
              })
            ).id,
          );
        }
        for (const [i, entry] of labelledSet.entries()) {
          const hits = await store.search({ scope: "labelled", query: entry.query, k: 3 });
          if (hits.some((hit) => hit.record.id === ids[i])) found++;
        }
        rows.push({
          backend: target.name,
          records: size,
          putP50: percentile(putTimes, 0.5),
          putP99: percentile(putTimes, 0.99),
          searchP50: percentile(searchTimes, 0.5),
          searchP99: percentile(searchTimes, 0.99),
          recallAt3: found / labelledSet.length,
        });
        log(`${target.name}: ${size} records measured`);
      } finally {
        await store.close();
        await target.cleanup?.();
      }
    }
  }
  return rows;
}

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? Number.NaN;
}

export function formatBenchTable(rows: readonly BenchRow[]): string {
  const header = ["backend", "records", "put p50 ms", "put p99 ms", "search p50 ms", "search p99 ms", "recall@3"];
  const body = rows.map((row) => [
    row.backend,
    row.records.toLocaleString("en-US"),
    row.putP50.toFixed(3),
    row.putP99.toFixed(3),
    row.searchP50.toFixed(3),
    row.searchP99.toFixed(3),
    `${(row.recallAt3 * 100).toFixed(1)}% (${Math.round(row.recallAt3 * labelledSet.length)}/${labelledSet.length})`,
  ]);
  const widths = header.map((title, col) => Math.max(title.length, ...body.map((cells) => cells[col]!.length)));
  const line = (cells: string[]) =>
    `| ${cells.map((cell, col) => (col === 0 ? cell.padEnd(widths[col]!) : cell.padStart(widths[col]!))).join(" | ")} |`;
  return [line(header), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...body.map(line)].join("\n");
}
