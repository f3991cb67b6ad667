import type { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { conceptEmbed, runStrategyStoreConformance, upgradeSample } from "@x/strategy-store-core/conformance";
import { executorFor } from "./connection";
import { PostgresStrategyStore, SCHEMA_VERSION } from "./index";
import { migrate, tablesFor } from "./migrations";
import { PG_URL, runSchema, startPglite } from "../test/pg-support";

let pglite: PGlite;
beforeAll(async () => {
  pglite = await startPglite();
});
afterAll(async () => {
  await pglite.close();
});

const pgliteSchema = runSchema("pglite");
runStrategyStoreConformance({
  name: "postgres (PGlite + pgvector)",
  open: (options) => PostgresStrategyStore.open({ ...options, client: pglite, schema: pgliteSchema }),
  openSecond: (options) => PostgresStrategyStore.open({ ...options, client: pglite, schema: pgliteSchema }),
  reopen: (options) => PostgresStrategyStore.open({ ...options, client: pglite, schema: pgliteSchema }),
  propertyRuns: 10,
});

describe("postgres (PGlite + pgvector) specifics", () => {
  it("uses pgvector when the extension exists and an embed function is given", async () => {
    const store = await PostgresStrategyStore.open({ client: pglite, schema: pgliteSchema, embed: conceptEmbed });
    expect(store.vectorSearch).toBe(true);
    const { rows } = await pglite.query<{ type: string }>(
      "SELECT format_type(atttypid, atttypmod) AS type FROM pg_attribute " +
        "WHERE attrelid = $1::regclass AND attname = 'embedding_vec'",
      [`"${pgliteSchema}".strategies`],
    );
    expect(rows[0]?.type).toBe("vector");
    await store.close();
  });

  it("without an embed function, or with vector: false, search is lexical only", async () => {
    const plain = await PostgresStrategyStore.open({ client: pglite, schema: pgliteSchema });
    const off = await PostgresStrategyStore.open({
      client: pglite,
      schema: pgliteSchema,
      embed: conceptEmbed,
      vector: false,
    });
    expect([plain.vectorSearch, off.vectorSearch]).toEqual([false, false]);
    await plain.close();
    await off.close();
  });

  it("records its migrations in the schema-version table", async () => {
    const store = await PostgresStrategyStore.open({ client: pglite, schema: pgliteSchema });
    const { rows } = await pglite.query<{ version: number }>(
      `SELECT version FROM "${pgliteSchema}".strategy_schema_version ORDER BY version`,
    );
    expect(rows.map((row) => row.version)).toEqual(Array.from({ length: SCHEMA_VERSION }, (_, i) => i + 1));
    await store.close();
  });

  it("migration 3 indexes the records a version-2 schema holds, scope by scope", async () => {
    const schema = runSchema("upgrade");
    const tables = tablesFor(schema);
    await migrate(executorFor(pglite), tables, false, 2);
    const insert = (id: string, scope: string, problem: string, tags: string[]) =>
      pglite.query(
        `INSERT INTO ${tables.strategies} (id, scope, strategy_key, problem, strategy, confidence, source, tags, ` +
          `created_at, updated_at)
         VALUES ($1, $2, $1, $3, 'a strategy', 1, 't', $4, now(), now())`,
        [id, scope, problem, tags],
      );
    await insert("a", "one", "disk fills up", ["logrotate"]);
    await insert("b", "one", "build is slow", []);
    await insert("c", "two", "disk fills up on the build host", []);
    const store = await PostgresStrategyStore.open({ client: pglite, schema });
    const ids = async (scope: string, query: string) =>
      (await store.search({ scope, query, k: 3 })).map((hit) => hit.record.id);
    expect(await ids("one", "logrotate")).toEqual(["a"]);
    expect(await ids("two", "disk")).toEqual(["c"]);
    expect(await store.delete("one", "a")).toBe(true);
    expect(await ids("one", "disk")).toEqual([]);
    expect(await ids("one", "build")).toEqual(["b"]);
    await store.close();
    await pglite.query(`DROP SCHEMA "${schema}" CASCADE`);
  });

  it("migrations 3 to 5 index and repack a version-2 schema's rows: they score as freshly written ones", async () => {
    const freshSchema = runSchema("fresh");
    const fresh = await PostgresStrategyStore.open({ client: pglite, schema: freshSchema });
    await fresh.putMany(upgradeSample.inputs);
    const before = await fresh.search(upgradeSample.search);
    await fresh.close();
    const schema = runSchema("repack");
    const tables = tablesFor(schema);
    await migrate(executorFor(pglite), tables, false, 2);
    for (const [i, input] of upgradeSample.inputs.entries()) {
      await pglite.query(
        `INSERT INTO ${tables.strategies} (id, scope, strategy_key, problem, strategy, confidence, source, tags,
           created_at, updated_at) VALUES ($1, $2, $1, $3, $4, 1, 't', $5, now(), now())`,
        [`r${i}`, input.scope, input.problem, input.strategy, input.tags ?? []],
      );
    }
    // Version 4 as an older release left it (postings in impact order), then the rest on open.
    await migrate(executorFor(pglite), tables, false, 4);
    const upgraded = await PostgresStrategyStore.open({ client: pglite, schema });
    const scored = (hits: typeof before) => hits.map((hit) => [hit.record.problem, hit.score]);
    expect(scored(await upgraded.search(upgradeSample.search))).toEqual(scored(before));
    await upgraded.close();
    await pglite.query(`DROP SCHEMA "${schema}" CASCADE`);
    await pglite.query(`DROP SCHEMA "${freshSchema}" CASCADE`);
  });

  it("refuses a database whose schema a newer release wrote", async () => {
    const schema = runSchema("newer");
    await (await PostgresStrategyStore.open({ client: pglite, schema })).close();
    await pglite.query(`INSERT INTO "${schema}".strategy_schema_version (version, applied_at) VALUES ($1, now())`, [
      SCHEMA_VERSION + 1,
    ]);
    await expect(PostgresStrategyStore.open({ client: pglite, schema })).rejects.toMatchObject({ code: "backend" });
    await pglite.query(`DROP SCHEMA "${schema}" CASCADE`);
  });

  it("refuses a schema name that is not a plain identifier", async () => {
    await expect(PostgresStrategyStore.open({ client: pglite, schema: 'x"; DROP TABLE y; --' })).rejects.toMatchObject({
      code: "invalid_input",
    });
  });
});

if (PG_URL === undefined) {
  console.warn("PG_URL not set: skipping real PostgreSQL conformance run");
} else {
  const url = PG_URL;
  const schema = runSchema("pg");
  afterAll(async () => {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  });
  // Each store owns its Pool, so the racing tests are two Pools on one database.
  runStrategyStoreConformance({
    name: "postgres (real server)",
    open: (options) => PostgresStrategyStore.open({ ...options, connectionString: url, schema }),
    openSecond: (options) => PostgresStrategyStore.open({ ...options, connectionString: url, schema }),
    reopen: (options) => PostgresStrategyStore.open({ ...options, connectionString: url, schema }),
  });

  it("postgres (real server): vector search is on exactly when the server has pgvector", async () => {
    const store = await PostgresStrategyStore.open({ connectionString: url, schema, embed: conceptEmbed });
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const { rows } = await admin.query("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'");
    await admin.end();
    expect(store.vectorSearch).toBe(rows.length > 0);
    await store.close();
  });
}
