import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { expectStoreError, listAll } from "@x/strategy-store-core/conformance";
import { SCHEMA_VERSION, SqliteStrategyStore } from "./index";

const dir = mkdtempSync(join(tmpdir(), "strategy-sqlite-specifics-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const input = { scope: "s", problem: "disk fills up", strategy: "rotate the logs", confidence: 2, source: "teacher" };

describe("sqlite specifics", () => {
  it("opens in WAL mode with a busy timeout and records its migrations", async () => {
    const file = join(dir, "pragmas.db");
    const store = new SqliteStrategyStore({ database: file, busyTimeoutMs: 1234 });
    const db = new Database(file);
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(db.prepare("SELECT version FROM strategy_schema_version").all()).toEqual([{ version: SCHEMA_VERSION }]);
    db.close();
    // Opening again runs nothing twice.
    const again = new SqliteStrategyStore({ database: file });
    await again.close();
    await store.close();
  });

  it("refuses a database whose schema a newer release wrote", async () => {
    const file = join(dir, "newer.db");
    await new SqliteStrategyStore({ database: file }).close();
    const db = new Database(file);
    db.prepare("INSERT INTO strategy_schema_version (version, applied_at) VALUES (?, ?)").run(
      SCHEMA_VERSION + 1,
      "later",
    );
    db.close();
    expect(() => new SqliteStrategyStore({ database: file })).toThrow(expect.objectContaining({ code: "backend" }));
  });

  it("a file that cannot be opened fails with a typed error", () => {
    expect(() => new SqliteStrategyStore({ database: join(dir, "missing-dir", "x.db") })).toThrow(
      expect.objectContaining({ name: "StrategyStoreError", code: "backend" }),
    );
  });

  it("a write blocked past busy_timeout fails with busy and stores nothing", async () => {
    const file = join(dir, "busy.db");
    const store = new SqliteStrategyStore({ database: file, busyTimeoutMs: 50 });
    const other = new Database(file);
    other.exec("BEGIN IMMEDIATE");
    await expectStoreError(store.put(input), "busy");
    other.exec("ROLLBACK");
    other.close();
    expect(await listAll(store, "s")).toEqual([]);
    expect((await store.put(input)).strategy).toBe("rotate the logs");
    await store.close();
  });

  it("a connection passed in stays open after close()", async () => {
    const db = new Database(":memory:");
    const store = new SqliteStrategyStore({ database: db });
    await store.put(input);
    await store.close();
    expect(db.open).toBe(true);
    expect(db.prepare("SELECT COUNT(*) AS n FROM strategies").get()).toEqual({ n: 1 });
    db.close();
  });
});
