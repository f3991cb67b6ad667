import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { expectStoreError, listAll, uniqueScope } from "@x/strategy-store-core/conformance";
import type { StrategyInput } from "@x/strategy-store-core";
import type { PgQueryable } from "./index";
import { PostgresStrategyStore } from "./index";
import { PG_URL, runSchema } from "../test/pg-support";

const input = (scope: string, problem: string, strategy = "drain the queue before the deploy"): StrategyInput => ({
  scope,
  problem,
  strategy,
  confidence: 2,
  source: "teacher",
});

describe("a database that cannot be reached", () => {
  it("says it could not connect (a connection never made is not one lost), typed connection_lost", async () => {
    // Port 1 on loopback: nothing listens there, so the connect is refused at once.
    const opened = PostgresStrategyStore.open({ connectionString: "postgres://postgres@127.0.0.1:1/postgres" });
    const failure = await opened.then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toMatchObject({ name: "StrategyStoreError", code: "connection_lost" });
    expect((failure as Error).message).toBe(
      "could not connect to the database (ECONNREFUSED): is PostgreSQL running at that address? " +
        "The operation was not applied",
    );
    expect((failure as Error).message).not.toMatch(/lost/);
  });
});

describe("connection loss (PGlite closed underneath)", () => {
  const dir = mkdtempSync(join(tmpdir(), "strategy-pglite-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("connection_lost for every call after the database goes away, and only completed writes survive", async () => {
    const scope = uniqueScope("loss");
    const db = await PGlite.create(dir);
    const store = await PostgresStrategyStore.open({ client: db, schema: "loss" });
    const kept = await store.put(input(scope, "queue backs up during deploys"));

    // Writes in flight while the database closes either finish whole or fail typed.
    const inFlight = [
      store.put(input(scope, "a second problem", "scale the consumers first")),
      store.recordOutcome(scope, kept.id, true),
    ];
    await db.close();
    const settled = await Promise.allSettled(inFlight);
    for (const result of settled) {
      if (result.status === "rejected")
        expect(result.reason).toMatchObject({ name: "StrategyStoreError", code: "connection_lost" });
    }
    await expectStoreError(store.put(input(scope, "late problem", "late strategy")), "connection_lost");
    await expectStoreError(store.search({ scope, query: "queue deploy", k: 3 }), "connection_lost");
    await expectStoreError(store.recordOutcome(scope, kept.id, true), "connection_lost");
    await store.close();

    const reopenedDb = await PGlite.create(dir);
    try {
      const reopened = await PostgresStrategyStore.open({ client: reopenedDb, schema: "loss" });
      const records = await listAll(reopened, scope);
      const secondPut = settled[0]!.status === "fulfilled";
      const outcome = settled[1]!.status === "fulfilled";
      expect(records.map((r) => r.strategy).sort()).toEqual(
        [kept.strategy, ...(secondPut ? ["scale the consumers first"] : [])].sort(),
      );
      expect(await reopened.get(scope, kept.id)).toMatchObject({ uses: outcome ? 1 : 0 });
      await reopened.close();
    } finally {
      await reopenedDb.close();
    }
  }, 90_000);
});

if (PG_URL === undefined) {
  console.warn("PG_URL not set: skipping real PostgreSQL connection-loss test");
} else {
  const url = PG_URL;
  describe("connection loss (real server, backend terminated mid-transaction)", () => {
    const schema = runSchema("loss");
    const appName = `strategy-loss-${randomBytes(4).toString("hex")}`;
    const pool = new pg.Pool({ connectionString: url, application_name: appName });
    pool.on("error", () => undefined);
    // The locker holds the row lock; the admin watches and terminates. They must differ: inside a
    // transaction pg_stat_activity is a snapshot taken at first read and would never change.
    const admin = new pg.Client({ connectionString: url });
    const locker = new pg.Client({ connectionString: url });

    afterAll(async () => {
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined);
      await admin.end();
      await locker.end();
      await pool.end();
    });

    /** Waits until one of the store's connections is blocked on a lock, then terminates it. */
    async function terminateBlockedStoreBackend(): Promise<void> {
      for (let i = 0; i < 400; i++) {
        const { rows } = await admin.query<{ pid: number }>(
          "SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'",
          [appName],
        );
        if (rows[0]) {
          await admin.query("SELECT pg_terminate_backend($1)", [rows[0].pid]);
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      throw new Error("the store's transaction never blocked on the held lock");
    }

    /** Runs `write` while another session holds the record's row lock, and kills the store's backend. */
    async function killDuring(id: string, write: () => Promise<unknown>): Promise<unknown> {
      await locker.query("BEGIN");
      await locker.query(`SELECT id FROM "${schema}".strategies WHERE id = $1 FOR UPDATE`, [id]);
      const outcome = write().then(
        () => undefined,
        (error: unknown) => error,
      );
      await terminateBlockedStoreBackend();
      const result = await outcome;
      await locker.query("ROLLBACK");
      return result;
    }

    it("connection_lost when the backend dies inside put's transaction; the record is untouched", async () => {
      await admin.connect();
      await locker.connect();
      const store = await PostgresStrategyStore.open({ client: pool, schema });
      const scope = uniqueScope("loss");
      const original = await store.put(input(scope, "original problem wording"));

      // The row lock makes put block after BEGIN, between its statements; outcome blocks in its UPDATE.
      const putError = await killDuring(original.id, () =>
        store.put({ ...input(scope, "rewritten problem wording"), confidence: 3 }),
      );
      expect(putError).toMatchObject({ name: "StrategyStoreError", code: "connection_lost" });
      const outcomeError = await killDuring(original.id, () => store.recordOutcome(scope, original.id, true));
      expect(outcomeError).toMatchObject({ name: "StrategyStoreError", code: "connection_lost" });
      const after = await store.get(scope, original.id);
      expect(after).toEqual(original);
      expect(await listAll(store, scope)).toHaveLength(1);
      // The pool replaced the dead connection; the store keeps working.
      expect((await store.put(input(scope, "rewritten problem wording"))).problem).toBe("rewritten problem wording");
      await store.close();
    });
  });
}

if (PG_URL === undefined) {
  console.warn("PG_URL not set: skipping the single pg.Client test");
} else {
  const url = PG_URL;
  describe("one plain pg.Client", () => {
    const schema = runSchema("single");
    const client = new pg.Client({ connectionString: url });
    const connected = client.connect();
    afterAll(async () => {
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined);
      await client.end();
    });

    it("a lone put that inserts is one statement, indexed as a batch is; a merging one is a transaction", async () => {
      await connected;
      const statements: string[] = [];
      const recording: PgQueryable = {
        query: async (text, params) => {
          statements.push(text);
          return client.query(text, params);
        },
      };
      const store = await PostgresStrategyStore.open({ client: recording, schema });
      const scope = uniqueScope("one-trip");
      statements.length = 0;
      const first = await store.put(input(scope, "disk fills up", "rotate the logs"));
      expect(statements).toHaveLength(1);
      const batched = await store.putMany([input(scope, "disk is slow", "check the raid")]);
      statements.length = 0;
      const merged = await store.put(input(scope, "disk fills up fast", "rotate the logs"));
      expect(merged.id).toBe(first.id);
      expect(statements).toContain("BEGIN");
      expect(statements).toContain("COMMIT");
      const hits = await store.search({ scope, query: "disk fast raid", k: 3 });
      expect(hits.map((hit) => hit.record.id).sort()).toEqual([first.id, batched[0]!.id].sort());
      await store.close();
    });

    // On one connection, a statement sent while another call's transaction is open becomes part of
    // it: rolled back with it, and able to see its uncommitted rows.
    it("a call made while putMany's transaction is open waits for it instead of joining it", async () => {
      await connected;
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
      // A lone put that inserts is one statement; a batch runs in a transaction.
      const put = store.putMany([input(scope, "queue backs up", "scale the consumers")]);
      await begun;
      const [, outcome, got] = await Promise.all([
        put,
        store.recordOutcome(scope, first.id, true),
        store.get(scope, first.id),
      ]);
      expect(outcome.uses).toBe(1);
      expect(got?.id).toBe(first.id);

      const begin = statements.indexOf("BEGIN");
      const commit = statements.indexOf("COMMIT");
      expect(begin).toBeGreaterThanOrEqual(0);
      expect(commit).toBeGreaterThan(begin);
      const inside = statements.slice(begin + 1, commit);
      expect(inside.length).toBeGreaterThan(0);
      expect(
        inside.filter((text) => text.includes("uses = uses + 1") || /^SELECT\b(?![\s\S]*FOR UPDATE)/.test(text)),
      ).toEqual([]);
      await store.close();
    });
  });
}
