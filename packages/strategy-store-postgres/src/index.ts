export { PostgresStrategyStore } from "./postgres-store";
export type { PostgresStrategyStoreOptions } from "./postgres-store";
export type { PgClient, PgQueryable, PgPoolLike, PgTransactional } from "./connection";
export { SCHEMA_VERSION } from "./migrations";
