export { SqliteStrategyStore } from "./sqlite-store";
export type { SqliteStrategyStoreOptions } from "./sqlite-store";
export { SCHEMA_VERSION } from "./migrations";
