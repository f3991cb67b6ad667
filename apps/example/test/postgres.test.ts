import { randomUUID } from "node:crypto";
import { PostgresStrategyStore } from "@x/strategy-store-postgres";
import { afterAll, describe, expect, it } from "vitest";
import { ofType, parseEvents, runCli, removeTempDirs, tempDir } from "./cli-helpers";

const PG_URL = process.env.PG_URL;

if (PG_URL === undefined) {
  console.warn("PG_URL not set: skipping the demo against a real PostgreSQL (--store postgres://…)");
} else {
  const url = PG_URL;
  const scope = `x-agent-test-${randomUUID()}`;

  afterAll(removeTempDirs);
  afterAll(async () => {
    const store = await PostgresStrategyStore.open({ connectionString: url });
    for (const record of (await store.list({ scope })).records) await store.delete(scope, record.id);
    await store.close();
  });

  describe("x-agent demo --store postgres://… (real server)", { timeout: 180_000 }, () => {
    it("stores the teacher's strategy in PostgreSQL and a second process retrieves it", async () => {
      const cwd = await tempDir("x-agent-test-pg-");
      const first = await runCli(["demo", "teacher", "--json", "--store", url, "--scope", scope], { cwd });
      expect(first.code).toBe(0);
      const firstEvents = parseEvents(first.stdout);
      expect(ofType(firstEvents, "note").some((n) => n.text.startsWith("strategy store: PostgreSQL"))).toBe(true);
      expect(ofType(firstEvents, "strategy_stored")).toHaveLength(1);

      const second = await runCli(["demo", "memory", "--json", "--store", url, "--scope", scope], { cwd });
      expect(second.code).toBe(0);
      const events = parseEvents(second.stdout);
      expect(ofType(events, "strategies_retrieved")[0]!.hits).toHaveLength(1);
      expect(ofType(events, "escalation")).toEqual([]);
    });
  });
}
