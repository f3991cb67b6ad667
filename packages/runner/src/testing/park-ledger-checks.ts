import type { ParkLedger } from "../vocabulary/park-ledger";
import { claimChecks } from "./park-ledger-claims";
import type { ParkLedgerCheck, ParkLedgerHarness } from "./park-ledger-harness";
import { leaseChecks } from "./park-ledger-leases";
import { recordChecks } from "./park-ledger-records";

/**
 * Every contract item the harness's ledger takes part in, each runnable on its own: the claim
 * checks always, the record checks with `records`, the lease checks with `leases`. A test that
 * proves the suite catches a broken ledger runs these and expects some to fail.
 */
export function parkLedgerChecks<L extends ParkLedger>(harness: ParkLedgerHarness<L>): ParkLedgerCheck[] {
  return [
    ...claimChecks(harness),
    ...(harness.records ? recordChecks(harness) : []),
    ...(harness.leases ? leaseChecks(harness) : []),
  ];
}
