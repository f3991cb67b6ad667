import { existsSync } from "node:fs";
import { syntheticCorpus } from "@x/strategy-store-core/bench";
import { SqliteStrategyStore } from "../src/index";
const path = process.env.DB ?? "/tmp/store-prof/100k.db";
const N = Number(process.env.N ?? 100000);
const fresh = !existsSync(path);
const store = new SqliteStrategyStore({ database: path });
const corpus = syntheticCorpus();
if (fresh) {
  const t0 = performance.now();
  for (let from = 0; from < N; from += 1000)
    await store.putMany(Array.from({ length: 1000 }, (_, i) => corpus.record(from + i, "bench-0")));
  console.log("load s", (performance.now() - t0) / 1000);
}
const times: number[] = [];
const cpus: number[] = [];
for (let i = 0; i < 2000; i++) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await store.search({ scope: "bench-0", query: corpus.query(i), k: 3 });
  times.push(performance.now() - t0);
  const c = process.cpuUsage(c0);
  cpus.push((c.user + c.system) / 1000);
}
const p = (a: number[], q: number) => [...a].sort((x, y) => x - y)[Math.ceil(q * a.length) - 1]!.toFixed(3);
console.log("wall p50/p99", p(times, 0.5), p(times, 0.99), "cpu", p(cpus, 0.5), p(cpus, 0.99));
await store.close();
