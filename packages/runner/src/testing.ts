import { describe, it } from "vitest";
import type { ParkLedger } from "./vocabulary/park-ledger";
import { parkLedgerChecks } from "./testing/park-ledger-checks";
import type { ParkLedgerHarness } from "./testing/park-ledger-harness";

/**
 * The behaviour every ParkLedger backend must show, as a vitest suite. Call it from the backend's
 * own test file; it registers one test per contract item under `describe(<name> park-ledger conformance)`.
 */
export function runParkLedgerConformance<L extends ParkLedger>(harness: ParkLedgerHarness<L>): void {
  describe(`${harness.name} park-ledger conformance`, () => {
    for (const check of parkLedgerChecks(harness)) it(check.name, () => check.run());
  });
}

export { parkLedgerChecks } from "./testing/park-ledger-checks";
export type { ParkLedgerCheck, ParkLedgerHarness } from "./testing/park-ledger-harness";
