import { syntheticCorpus } from "@x/strategy-store-core/bench";
import { SqliteStrategyStore } from "../src/index";
import Database from "better-sqlite3";
const path = process.env.DB ?? "/tmp/store-prof/100k.db";
const db = new Database(path);
if (process.env.CKPT) db.pragma(`wal_autocheckpoint = ${process.env.CKPT}`);
const store = new SqliteStrategyStore({ database: db });
const corpus = syntheticCorpus();
const times: number[] = [];
const c0 = process.cpuUsage(); const t0 = performance.now();
const ids: string[] = [];
for (let i = 0; i < 1000; i++) { const t = performance.now(); ids.push((await store.put(corpus.record(2_000_000_000 + i, "bench-0"))).id); times.push(performance.now() - t); }
const wall = performance.now() - t0; const c = process.cpuUsage(c0);
const p = (q: number) => [...times].sort((a, b) => a - b)[Math.ceil(q * times.length) - 1]!.toFixed(3);
console.log("put/s", (1000 / wall * 1000).toFixed(0), "cpu ms/put", ((c.user + c.system) / 1000 / 1000).toFixed(3), "p50", p(0.5), "p99", p(0.99), "max", p(1));
for (const id of ids) await store.delete("bench-0", id);
await store.close(); db.close();
