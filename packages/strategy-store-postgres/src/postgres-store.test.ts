import type { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { runStrategyStoreConformance } from "@x/strategy-store-core/conformance";
import { PostgresStrategyStore } from "./index";
import { PG_URL, runSchema, startPglite } from "./test-support";

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
}
