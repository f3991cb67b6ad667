import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { newId, prepareStrategy } from "@x/strategy-store-core";
import { formatBenchTable, runStrategyStoreBench } from "@x/strategy-store-core/bench";
import { SqliteStrategyStore } from "../src/index";

const dir = mkdtempSync(join(tmpdir(), "strategy-sqlite-bench-"));
let n = 0;
let db: Database.Database | undefined;
try {
  const rows = await runStrategyStoreBench([
    {
      name: "sqlite (file, WAL)",
      open: async () => {
        db = new Database(join(dir, `${++n}.db`));
        return new SqliteStrategyStore({ database: db });
      },
      // Background rows go in with one INSERT statement per row inside one transaction per batch
      // (the FTS triggers index them), not a transaction per put.
      seed: async (_store, records) => {
        const prepared = await Promise.all(records.map((record) => prepareStrategy(record)));
        const insert = db!.prepare(
          `INSERT INTO strategies (id, scope, strategy_key, problem, strategy, confidence, source, tags, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, '[]', ?, ?)`,
        );
        const now = new Date().toISOString();
        db!.transaction(() => {
          for (const p of prepared)
            insert.run(newId(), p.scope, p.key, p.problem, p.strategy, p.confidence, p.source, now, now);
        })();
      },
      cleanup: async () => db?.close(),
    },
  ]);
  console.log(formatBenchTable(rows));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
