import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import pg from "pg";
import { newId, prepareStrategy } from "@x/strategy-store-core";
import type { StrategyInput } from "@x/strategy-store-core";
import { formatBenchTable, runStrategyStoreBench } from "@x/strategy-store-core/bench";
import type { BenchTarget } from "@x/strategy-store-core/bench";
import { PostgresStrategyStore } from "../src/index";
import type { PgQueryable } from "../src/index";

/** One multi-row INSERT per batch (unnest of column arrays), instead of a transaction per put. */
async function bulkInsert(db: PgQueryable, schema: string, records: StrategyInput[]): Promise<void> {
  const prepared = await Promise.all(records.map((record) => prepareStrategy(record)));
  const now = new Date().toISOString();
  await db.query(
    `INSERT INTO "${schema}".strategies (id, scope, strategy_key, problem, strategy, confidence, source, created_at, updated_at)
     SELECT id, scope, strategy_key, problem, strategy, confidence, source, $8::timestamptz, $8::timestamptz
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::smallint[], $7::text[])
       AS r(id, scope, strategy_key, problem, strategy, confidence, source)`,
    [
      prepared.map(() => newId()),
      prepared.map((p) => p.scope),
      prepared.map((p) => p.key),
      prepared.map((p) => p.problem),
      prepared.map((p) => p.strategy),
      prepared.map((p) => p.confidence),
      prepared.map((p) => p.source),
      now,
    ],
  );
}

function target(
  name: string,
  db: PgQueryable,
  connect: (schema: string) => Promise<PostgresStrategyStore>,
): BenchTarget {
  let schema = "";
  let n = 0;
  return {
    name,
    open: () => {
      schema = `strategy_bench_${process.pid}_${++n}`;
      return connect(schema);
    },
    seed: (_store, records) => bulkInsert(db, schema, records),
    cleanup: async () => {
      await db.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    },
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
  pool = new pg.Pool({ connectionString: url });
  const client = pool;
  targets.push(target("postgres (real server)", client, (schema) => PostgresStrategyStore.open({ client, schema })));
}
try {
  const rows = await runStrategyStoreBench(targets, { searchSamples: 100 });
  console.log(formatBenchTable(rows));
} finally {
  await pglite.close();
  await pool?.end();
}
