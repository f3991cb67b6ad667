import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import pg from "pg";
import { formatBenchTable, keptFolder, layoutsFromEnv, runStrategyStoreBench } from "@x/strategy-store-core/bench";
import type { BenchTarget } from "@x/strategy-store-core/bench";
import { PostgresStrategyStore } from "../src/index";
import type { PgQueryable } from "../src/index";

// Kept databases live in a schema per dataset (PGlite: in a data folder under STRATEGY_BENCH_KEEP);
// otherwise each run uses schemas of its own and drops them (and PGlite's folder).
const kept = keptFolder();
const schemaOf = (dataset: string) =>
  `strategy_bench_${kept === undefined ? `${process.pid}_` : ""}${dataset.replace(/[^a-z0-9]/g, "_")}`;

/** A schema per dataset, with a one-row table saying how many background records it holds. */
function target(name: string, db: PgQueryable, serverCpuNs?: () => number): BenchTarget {
  return {
    name,
    open: (dataset) => PostgresStrategyStore.open({ client: db, schema: schemaOf(dataset) }),
    loaded: async (dataset) => {
      // Asked first rather than caught: a failed query costs the pool its connection (and the CPU reading).
      const table = `"${schemaOf(dataset)}".bench_loaded`;
      const exists = await db.query<{ found: string | null }>("SELECT to_regclass($1)::text AS found", [table]);
      if (exists.rows[0]?.found == null) return 0;
      return (await db.query<{ records: number }>(`SELECT records FROM ${table}`)).rows[0]?.records ?? 0;
    },
    setLoaded: async (dataset, records) => {
      const table = `"${schemaOf(dataset)}".bench_loaded`;
      await db.query(`CREATE TABLE IF NOT EXISTS ${table} (records integer NOT NULL)`);
      await db.query(`DELETE FROM ${table}`);
      await db.query(`INSERT INTO ${table} (records) VALUES ($1)`, [records]);
      // What autovacuum does on a server after a bulk load: statistics for the planner, and the
      // visibility map that lets a search read postings from the index alone. PGlite runs no
      // autovacuum, so after an import its user has to (see the README).
      for (const table of ["strategy_postings", "strategies"]) {
        await db.query(`VACUUM (ANALYZE) "${schemaOf(dataset)}".${table}`);
      }
    },
    release: async (dataset) => {
      if (kept === undefined) await db.query(`DROP SCHEMA IF EXISTS "${schemaOf(dataset)}" CASCADE`);
    },
    ...(serverCpuNs ? { serverCpuNs } : {}),
  };
}

// PGlite keeps its data in a folder, kept or temporary: in memory, 100k records already took 2.8 GB
// of RSS, and 1M would not fit. On disk is also how an application keeps a PGlite database.
const pgliteDir = kept === undefined ? mkdtempSync(join(tmpdir(), "strategy-pglite-bench-")) : join(kept, "pglite");
mkdirSync(pgliteDir, { recursive: true });
const pglite = await PGlite.create({ extensions: { vector }, dataDir: pgliteDir });
const only = process.env.STRATEGY_BENCH_PG?.split(",");
const targets: BenchTarget[] = [];
let pool: pg.Pool | undefined;
const url = process.env.PG_URL;
if (url === undefined) {
  console.warn("PG_URL not set: skipping the real PostgreSQL row");
} else if (!only || only.includes("server")) {
  // One connection, so one server backend does all the work and its CPU can be read per operation.
  pool = new pg.Pool({ connectionString: url, max: 1, idleTimeoutMillis: 0 });
  const client = pool;
  const { rows } = await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
  const backend = rows[0]!.pid;
  // The first field of schedstat is the time the process has run, in nanoseconds.
  const serverCpuNs = () => Number(readFileSync(`/proc/${backend}/schedstat`, "utf8").split(" ")[0]);
  // The server's buffer cache decides whether a search or put at 1M records reads from memory: named in the row.
  const buffers = (await client.query<{ shared_buffers: string }>("SHOW shared_buffers")).rows[0]!.shared_buffers;
  targets.push(target(`postgres (real server, shared_buffers ${buffers})`, client, serverCpuNs));
}
if (!only || only.includes("pglite")) targets.push(target("postgres (PGlite)", pglite));
try {
  const rows = await runStrategyStoreBench(targets, { layouts: layoutsFromEnv() });
  console.log(formatBenchTable(rows));
} finally {
  await pglite.close();
  await pool?.end();
  if (kept === undefined) rmSync(pgliteDir, { recursive: true, force: true });
}
