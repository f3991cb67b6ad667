import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { runStrategyStoreConformance } from "@x/strategy-store-core/conformance";
import { SqliteStrategyStore } from "./index";

const dir = mkdtempSync(join(tmpdir(), "strategy-sqlite-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let file = join(dir, "0.db");
let files = 0;

runStrategyStoreConformance({
  name: "sqlite",
  open: (options) => {
    file = join(dir, `${++files}.db`);
    return new SqliteStrategyStore({ ...options, database: file });
  },
  openSecond: (options) => new SqliteStrategyStore({ ...options, database: file }),
  reopen: (options) => new SqliteStrategyStore({ ...options, database: file }),
});
