import { describe } from "vitest";
import { badInputSuite } from "./conformance/bad-input";
import { concurrencySuite } from "./conformance/concurrency";
import { crudSuite } from "./conformance/crud";
import { exactnessSuite } from "./conformance/exactness";
import type { ConformanceHarness } from "./conformance/harness";
import { isolationSuite } from "./conformance/isolation";
import { rankingSuite } from "./conformance/ranking";

/**
 * The behaviour every StrategyStore backend must show, as a vitest suite. Call it from the
 * backend's own test file; it registers tests under `describe(<name> conformance)`.
 */
export function runStrategyStoreConformance(harness: ConformanceHarness): void {
  describe(`${harness.name} conformance`, () => {
    crudSuite(harness);
    rankingSuite(harness);
    exactnessSuite(harness);
    isolationSuite(harness);
    badInputSuite(harness);
    concurrencySuite(harness);
  });
}

export type { ConformanceHarness } from "./conformance/harness";
export { uniqueScope, listAll, expectStoreError, upgradeSample } from "./conformance/harness";
export { labelledSet } from "./conformance/labelled-set";
export type { LabelledStrategy } from "./conformance/labelled-set";
export { putLabelledSet, conceptEmbed } from "./conformance/ranking";
export { referenceSearch } from "./conformance/lexical-reference";
export { exactSearchMismatches, EXACTNESS_RECORDS } from "./conformance/exactness";
