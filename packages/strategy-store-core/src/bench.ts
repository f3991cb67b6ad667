export { runStrategyStoreBench, formatBenchTable } from "./bench/run";
export type { BenchTarget, BenchOptions, BenchRow } from "./bench/run";
export { syntheticCorpus, prng } from "./bench/synthetic";
export type { SyntheticCorpus } from "./bench/synthetic";
export { labelledSet } from "./conformance/labelled-set";
export type { LabelledStrategy } from "./conformance/labelled-set";
