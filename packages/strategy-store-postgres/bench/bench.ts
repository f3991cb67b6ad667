import { readFileSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import pg from "pg";
import { formatBenchTable, layoutsFromEnv, runStrategyStoreBench } from "@x/strategy-store-core/bench";
import type { BenchTarget } from "@x/strategy-store-core/bench";
import { PostgresStrategyStore } from "../src/index";
import type { PgQueryable } from "../src/index";

/** A fresh schema per layout, dropped after it. */
function target(
  name: string,
  db: PgQueryable,
  connect: (schema: string) => Promise<PostgresStrategyStore>,
  serverCpuNs?: () => number,
): BenchTarget {
  let schema = "";
  let n = 0;
  return {
    name,
    open: () => {
      schema = `strategy_bench_${process.pid}_${++n}`;
      return connect(schema);
    },
    cleanup: async () => {
      await db.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    },
    ...(serverCpuNs ? { serverCpuNs } : {}),
  };
}

const pglite = await PGlite.create({ extensions: { vector } });
const targets = [
  target("postgres (PGlite)", pglite, (schema) => PostgresStrategyStore.open({ client: pglite, schema })),
];
let pool: pg.Pool | undefined;
const url = process.env.PG_URL;
if (url === undefined) {
  console.warn("PG_URL not set: skipping the real PostgreSQL row");
} else {
  // One connection, so one server backend does all the work and its CPU can be read per operation.
  pool = new pg.Pool({ connectionString: url, max: 1 });
  const client = pool;
  const { rows } = await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
  const backend = rows[0]!.pid;
  // The first field of schedstat is the time the process has run, in nanoseconds.
  const serverCpuNs = () => Number(readFileSync(`/proc/${backend}/schedstat`, "utf8").split(" ")[0]);
  targets.unshift(
    target("postgres (real server)", client, (schema) => PostgresStrategyStore.open({ client, schema }), serverCpuNs),
  );
}
try {
  const rows = await runStrategyStoreBench(targets, { layouts: layoutsFromEnv() });
  console.log(formatBenchTable(rows));
} finally {
  await pglite.close();
  await pool?.end();
}
