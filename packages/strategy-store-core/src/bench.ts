export {
  runStrategyStoreBench,
  formatBenchTable,
  DEFAULT_LAYOUTS,
  LOAD_BATCH,
  BULK_BATCH,
  layoutsFromEnv,
  keptFolder,
} from "./bench/run";
export type { BenchTarget, BenchOptions, BenchRow, BenchLayout } from "./bench/run";
export { syntheticCorpus, prng } from "./bench/synthetic";
export type { SyntheticCorpus } from "./bench/synthetic";
export { labelledSet } from "./conformance/labelled-set";
export type { LabelledStrategy } from "./conformance/labelled-set";
