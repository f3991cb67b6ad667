import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { listAll } from "@x/strategy-store-core/conformance";
import { SqliteStrategyStore } from "../src/index";

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), "strategy-sqlite-race-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("sqlite: separate processes on one file", () => {
  it("three processes racing outcomes and puts lose no update and make no duplicate", async () => {
    const file = join(dir, "race.db");
    const store = new SqliteStrategyStore({ database: file });
    const scope = "race";
    const target = await store.put({
      scope,
      problem: "target problem",
      strategy: "target strategy",
      confidence: 1,
      source: "race",
    });
    const rounds = 60;
    const worker = join(import.meta.dirname, "race-worker.ts");
    await Promise.all(
      ["p1", "p2", "p3"].map((label) =>
        run(
          process.execPath,
          ["--conditions=@x/source", "--import", "tsx", worker, file, scope, target.id, String(rounds), label],
          {
            cwd: join(import.meta.dirname, ".."),
          },
        ),
      ),
    );
    expect(await store.get(scope, target.id)).toMatchObject({ uses: 3 * rounds, successes: 3 * (rounds / 2) });
    const records = await listAll(store, scope);
    expect(records).toHaveLength(11);
    for (const record of records.filter((r) => r.id !== target.id))
      expect([...record.tags].sort()).toEqual(["p1", "p2", "p3"]);
    await store.close();
  }, 120_000);
});
