import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
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
      // One outer transaction per batch: each put's own transaction becomes a savepoint inside it.
      seed: async (store, records) => {
        db!.exec("BEGIN IMMEDIATE");
        for (const record of records) await store.put(record);
        db!.exec("COMMIT");
      },
      cleanup: async () => db?.close(),
    },
  ]);
  console.log(formatBenchTable(rows));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
