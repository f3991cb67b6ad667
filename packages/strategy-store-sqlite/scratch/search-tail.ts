import { PerformanceObserver } from "node:perf_hooks";
import { syntheticCorpus } from "../../strategy-store-core/src/bench/synthetic";
import { SqliteStrategyStore } from "../src/index";
const store = new SqliteStrategyStore({ database: "/work/benchkeep/sqlite/100000-in-1-scope.db" });
const corpus = syntheticCorpus();
let gcs = 0, gcMs = 0;
new PerformanceObserver((list) => { for (const e of list.getEntries()) { gcs++; gcMs += e.duration; } }).observe({ entryTypes: ["gc"] });
for (let i = 0; i < 500; i++) await store.search({ scope: "bench-0", query: corpus.query(900000 + i), k: 3 });
const rounds = Number(process.env.N ?? 2000);
const wall: number[] = [], cpu: number[] = [];
gcs = 0; gcMs = 0;
for (let r = 0; r < rounds; r++) {
  const q = corpus.query(r % 500);
  const c0 = process.cpuUsage(); const t0 = performance.now();
  await store.search({ scope: "bench-0", query: q, k: 3 });
  wall.push(performance.now() - t0); const c = process.cpuUsage(c0); cpu.push((c.user + c.system) / 1000);
}
const pct = (a: number[], p: number) => [...a].sort((x, y) => x - y)[Math.floor(p * (a.length - 1))]!.toFixed(2);
console.log(`wall p50 ${pct(wall, .5)} p99 ${pct(wall, .99)} | cpu p50 ${pct(cpu, .5)} p99 ${pct(cpu, .99)} | gcs ${gcs} gc ms ${gcMs.toFixed(0)} mean wall ${(wall.reduce((a, b) => a + b) / rounds).toFixed(2)}`);
store.close();
