export { MemoryStrategyStore } from "./memory-store";
export type { MemoryStrategyStoreOptions } from "./memory-store";
export { MemoryStrategyDatabase } from "./database";
