export { StrategyStoreError, isStrategyStoreError } from "./errors";
export type { StrategyStoreErrorCode, StrategyStoreErrorOptions } from "./errors";
export { LIMITS } from "./limits";
export { StrategyInputSchema, StrategyRecordSchema, ScopeSchema } from "./record";
export type { StrategyInput, StrategyRecord, StrategyHit } from "./record";
export { SearchQuerySchema, ListQuerySchema } from "./store";
export type { StrategyStore, SearchQuery, ListQuery, StrategyPage, EmbedFn, StrategyStoreOptions } from "./store";
