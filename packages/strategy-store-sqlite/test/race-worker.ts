// One of several processes hammering one SQLite file: argv = file, scope, record id, rounds, label.
import { SqliteStrategyStore } from "../src/index";

const [file, scope, id, rounds, label] = process.argv.slice(2) as [string, string, string, string, string];
const store = new SqliteStrategyStore({ database: file, busyTimeoutMs: 20_000 });
for (let i = 0; i < Number(rounds); i++) {
  await store.recordOutcome(scope, id, i % 2 === 0);
  await store.put({
    scope,
    problem: `shared problem ${i % 10}`,
    strategy: `shared strategy ${i % 10}`,
    confidence: 1,
    source: "race",
    tags: [label],
  });
}
await store.close();
