import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createFileParkLedger, createMemoryParkLedger } from "./park-ledger";

const dir = mkdtempSync(join(tmpdir(), "x-ledger-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("park ledgers", () => {
  it("memory: an id is claimed once", async () => {
    const ledger = createMemoryParkLedger();
    expect(await ledger.claim("a")).toBe(true);
    expect(await ledger.claim("a")).toBe(false);
    expect(await ledger.claim("b")).toBe(true);
  });

  it("file: of many racing claims on one id exactly one wins, across ledger instances", async () => {
    const ledgers = Array.from({ length: 8 }, () => createFileParkLedger(join(dir, "shared")));
    const wins = await Promise.all(ledgers.map((l) => l.claim("park-1")));
    expect(wins.filter(Boolean)).toHaveLength(1);
    expect(await createFileParkLedger(join(dir, "shared")).claim("park-1")).toBe(false);
  });

  it("file: refuses an id that is not a safe file name", async () => {
    await expect(createFileParkLedger(dir).claim("../escape")).rejects.toThrow(/safe file name/);
  });
});
