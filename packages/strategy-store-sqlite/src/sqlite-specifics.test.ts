import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { expectStoreError, listAll, upgradeSample } from "@x/strategy-store-core/conformance";
import { SCHEMA_VERSION, SqliteStrategyStore } from "./index";
import { migrate } from "./migrations";
import { BATCH_MERGE_MIN } from "./pending-postings";
import { SqliteLexicalIndex } from "./lexical-index";

const dir = mkdtempSync(join(tmpdir(), "strategy-sqlite-specifics-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const input = { scope: "s", problem: "disk fills up", strategy: "rotate the logs", confidence: 2, source: "teacher" };

describe("sqlite specifics", () => {
  it("opens in WAL mode with a busy timeout and records its migrations", async () => {
    const file = join(dir, "pragmas.db");
    const store = new SqliteStrategyStore({ database: file, busyTimeoutMs: 1234 });
    const db = new Database(file);
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(db.prepare("SELECT version FROM strategy_schema_version ORDER BY version").all()).toEqual(
      Array.from({ length: SCHEMA_VERSION }, (_, i) => ({ version: i + 1 })),
    );
    db.close();
    // Opening again runs nothing twice.
    const again = new SqliteStrategyStore({ database: file });
    await again.close();
    await store.close();
  });

  it("maps the file for reads by default, as far as mmapMiB says (0: not at all)", async () => {
    const conn = (mmapMiB?: number) => {
      const db = new Database(join(dir, "mmap.db"));
      const store = new SqliteStrategyStore({ database: db, ...(mmapMiB === undefined ? {} : { mmapMiB }) });
      const size = db.pragma("mmap_size", { simple: true });
      db.close();
      void store.close();
      return size;
    };
    expect(conn()).toBe(2047 * 1024 * 1024);
    expect(conn(64)).toBe(64 * 1024 * 1024);
    expect(conn(0)).toBe(0);
  });

  it("migrations index the records a version-1 database holds, scope by scope", async () => {
    const file = join(dir, "upgrade.db");
    const old = new Database(file);
    migrate(old, 1);
    const insert = old.prepare(
      `INSERT INTO strategies (id, scope, strategy_key, problem, strategy, confidence, source, tags, created_at,
         updated_at)
       VALUES (?, ?, ?, ?, ?, 1, 't', ?, ?, ?)`,
    );
    const now = new Date().toISOString();
    insert.run("a", "one", "ka", "disk fills up", "rotate the logs", '["logrotate"]', now, now);
    insert.run("b", "one", "kb", "build is slow", "cache the dependencies", "[]", now, now);
    insert.run("c", "two", "kc", "disk fills up on the build host", "prune old images", "[]", now, now);
    old.close();
    const store = new SqliteStrategyStore({ database: file });
    const ids = async (scope: string, query: string) =>
      (await store.search({ scope, query, k: 3 })).map((hit) => hit.record.id);
    expect(await ids("one", "logrotate")).toEqual(["a"]);
    expect(await ids("one", "disk build")).toEqual(["a", "b"]);
    expect(await ids("two", "disk")).toEqual(["c"]);
    expect(await store.delete("one", "a")).toBe(true);
    expect(await ids("one", "disk")).toEqual([]);
    await store.close();
  });

  it("migrations 3 and 4 rebuild a row's terms and posting blocks: upgraded rows score as fresh ones", async () => {
    const file = join(dir, "terms.db");
    const fresh = new SqliteStrategyStore({ database: file });
    await fresh.putMany(upgradeSample.inputs);
    const before = await fresh.search(upgradeSample.search);
    await fresh.close();
    const db = new Database(file);
    // Back to version 2's shape: no terms column, one row per posting (left empty: version 4 drops
    // them), none of version 5's pending postings.
    db.exec(`ALTER TABLE strategies DROP COLUMN terms; DROP TABLE strategy_blocks;
      DROP TABLE strategy_pending; ALTER TABLE strategy_scopes DROP COLUMN pending;
      ALTER TABLE strategy_scopes DROP COLUMN pending_tag;
      CREATE TABLE strategy_postings (scope_id INTEGER); CREATE TABLE strategy_terms (scope_id INTEGER);
      DELETE FROM strategy_schema_version WHERE version >= 3`);
    db.close();
    const upgraded = new SqliteStrategyStore({ database: file });
    expect(await upgraded.search(upgradeSample.search)).toEqual(before);
    await upgraded.close();
  });

  it("a batch merges a scope it left with BATCH_MERGE_MIN pending records, not a lightly touched one", async () => {
    const db = new Database(join(dir, "batch-merge.db"));
    const store = new SqliteStrategyStore({ database: db });
    const pending = () => db.prepare<[], { n: number }>("SELECT COUNT(*) AS n FROM strategy_pending").get()!.n;
    const spread = Array.from({ length: 30 }, (_, i) => ({
      ...input,
      scope: `spread-${i}`,
      problem: `disk ${i} fills`,
    }));
    await store.putMany(spread);
    expect(pending()).toBe(30);
    // Distinct words, so that no two records merge as the same one.
    const word = (i: number) => `${"abcdefghij"[i % 10]}${"klmnopqrst"[Math.floor(i / 10) % 10]}zz`;
    const heavy = Array.from({ length: BATCH_MERGE_MIN }, (_, i) => ({
      ...input,
      problem: `disk ${word(i)} fills`,
      strategy: `rotate ${word(i)}`,
    }));
    expect(new Set((await store.putMany(heavy)).map((record) => record.id)).size).toBe(BATCH_MERGE_MIN);
    expect(pending()).toBe(30);
    // What stayed pending is found as it would be from the blocks.
    const found = await store.search({ scope: "spread-7", query: "disk 7 fills", k: 1 });
    expect(found.map((hit) => hit.record.problem)).toEqual(["disk 7 fills"]);
    db.close();
    await store.close();
  });

  it("migration 5 keeps a version-4 database's blocks, adds pending postings: searches score as before", async () => {
    const file = join(dir, "pending.db");
    const db = new Database(file);
    const fresh = new SqliteStrategyStore({ database: db });
    await fresh.putMany(upgradeSample.inputs);
    // What version 4 held: every posting in the blocks.
    for (const { scope_id } of db.prepare<[], { scope_id: number }>("SELECT scope_id FROM strategy_scopes").all()) {
      new SqliteLexicalIndex(db).merge(scope_id);
    }
    expect(db.prepare("SELECT COUNT(*) AS n FROM strategy_pending").get()).toEqual({ n: 0 });
    const before = await fresh.search(upgradeSample.search);
    await fresh.close();
    db.exec(`DROP TABLE strategy_pending; ALTER TABLE strategy_scopes DROP COLUMN pending;
      ALTER TABLE strategy_scopes DROP COLUMN pending_tag;
      DELETE FROM strategy_schema_version WHERE version >= 5`);
    db.close();
    const upgraded = new SqliteStrategyStore({ database: file });
    expect(await upgraded.search(upgradeSample.search)).toEqual(before);
    await upgraded.close();
  });

  it("a search sees pending postings another connection wrote or deleted since its last search", async () => {
    const file = join(dir, "two-connections.db");
    const reader = new SqliteStrategyStore({ database: file });
    const writer = new SqliteStrategyStore({ database: file });
    const ids = async () => (await reader.search({ scope: "s", query: "disk logs", k: 5 })).map((hit) => hit.record.id);
    const first = await writer.put(input);
    expect(await ids()).toEqual([first.id]);
    const second = await writer.put({ ...input, problem: "disk is full of logs", strategy: "compress the logs" });
    expect((await ids()).sort()).toEqual([first.id, second.id].sort());
    await writer.delete("s", first.id);
    expect(await ids()).toEqual([second.id]);
    await writer.put({ ...input, problem: "disk is full of logs", strategy: "compress the logs", confidence: 3 });
    const [hit] = await reader.search({ scope: "s", query: "disk logs", k: 5 });
    expect(hit?.record.confidence).toBe(3);
    await reader.close();
    await writer.close();
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
    const notAFolder = join(dir, "plain-file");
    writeFileSync(notAFolder, "");
    expect(() => new SqliteStrategyStore({ database: join(notAFolder, "x.db") })).toThrow(
      expect.objectContaining({ name: "StrategyStoreError", code: "backend" }),
    );
  });

  it("creates the folders of a database path that do not exist yet", async () => {
    const file = join(dir, "state", "nested", "strategies.db");
    const store = new SqliteStrategyStore({ database: file });
    await store.put(input);
    await store.close();
    expect(existsSync(file)).toBe(true);
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
