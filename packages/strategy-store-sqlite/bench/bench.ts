import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { formatBenchTable, layoutsFromEnv, runStrategyStoreBench } from "@x/strategy-store-core/bench";
import { SqliteStrategyStore } from "../src/index";

const dir = mkdtempSync(join(tmpdir(), "strategy-sqlite-bench-"));
let n = 0;
try {
  const rows = await runStrategyStoreBench(
    [
      {
        name: "sqlite (file, WAL)",
        open: async () => new SqliteStrategyStore({ database: join(dir, `${++n}.db`) }),
        cleanup: async () => rmSync(join(dir, `${n}.db`), { force: true }),
      },
    ],
    { layouts: layoutsFromEnv() },
  );
  console.log(formatBenchTable(rows));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
