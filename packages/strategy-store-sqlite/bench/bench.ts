import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { formatBenchTable, keptFolder, layoutsFromEnv, runStrategyStoreBench } from "@x/strategy-store-core/bench";
import { SqliteStrategyStore } from "../src/index";

// One database file per dataset; a marker beside it says how many background records it holds.
const kept = keptFolder();
const dir = kept === undefined ? mkdtempSync(join(tmpdir(), "strategy-sqlite-bench-")) : join(kept, "sqlite");
mkdirSync(dir, { recursive: true });
const file = (dataset: string) => join(dir, `${dataset}.db`);
const marker = (dataset: string) => join(dir, `${dataset}.loaded`);
try {
  const rows = await runStrategyStoreBench(
    [
      {
        name: "sqlite (file, WAL)",
        open: async (dataset) => new SqliteStrategyStore({ database: file(dataset) }),
        loaded: async (dataset) =>
          existsSync(file(dataset)) && existsSync(marker(dataset)) ? Number(readFileSync(marker(dataset), "utf8")) : 0,
        setLoaded: async (dataset, records) => writeFileSync(marker(dataset), String(records)),
        release: async (dataset) => {
          if (kept !== undefined) return;
          for (const suffix of ["", "-wal", "-shm"]) rmSync(`${file(dataset)}${suffix}`, { force: true });
        },
      },
    ],
    { layouts: layoutsFromEnv() },
  );
  console.log(formatBenchTable(rows));
} finally {
  if (kept === undefined) rmSync(dir, { recursive: true, force: true });
}
