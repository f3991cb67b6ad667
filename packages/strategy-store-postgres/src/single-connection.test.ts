import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { uniqueScope } from "@x/strategy-store-core/conformance";
import type { PgQueryable } from "./index";
import { PostgresStrategyStore } from "./index";
import { PG_URL, runSchema } from "../test/pg-support";

const input = (scope: string, problem: string, strategy: string) => ({ scope, problem, strategy, confidence: 1, source: "teacher" });

if (PG_URL === undefined) {
  console.warn("PG_URL not set: skipping the single pg.Client test");
} else {
  const url = PG_URL;
  describe("one plain pg.Client", () => {
    const schema = runSchema("single");
    const client = new pg.Client({ connectionString: url });
    afterAll(async () => {
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined);
      await client.end();
    });

    // On one connection, a statement sent while another call's transaction is open becomes part of
    // it: rolled back with it, and able to see its uncommitted rows.
    it("a call made while put's transaction is open waits for it instead of joining it", async () => {
      await client.connect();
      const statements: string[] = [];
      let began: (() => void) | undefined;
      const recording: PgQueryable = {
        query: async (text, params) => {
          statements.push(text);
          if (text === "BEGIN") began?.();
          return client.query(text, params);
        },
      };
      const store = await PostgresStrategyStore.open({ client: recording, schema });
      const scope = uniqueScope("single");
      const first = await store.put(input(scope, "disk fills up", "rotate the logs"));
      statements.length = 0;
      const begun = new Promise<void>((resolve) => (began = resolve));
      const put = store.put(input(scope, "queue backs up", "scale the consumers"));
      await begun;
      const [, outcome, got] = await Promise.all([put, store.recordOutcome(scope, first.id, true), store.get(scope, first.id)]);
      expect(outcome.uses).toBe(1);
      expect(got?.id).toBe(first.id);

      const begin = statements.indexOf("BEGIN");
      const commit = statements.indexOf("COMMIT");
      expect(begin).toBeGreaterThanOrEqual(0);
      expect(commit).toBeGreaterThan(begin);
      const inside = statements.slice(begin + 1, commit);
      expect(inside.length).toBeGreaterThan(0);
      expect(inside.filter((text) => text.includes("uses = uses + 1") || /^SELECT\b(?![\s\S]*FOR UPDATE)/.test(text))).toEqual([]);
      await store.close();
    });
  });
}
