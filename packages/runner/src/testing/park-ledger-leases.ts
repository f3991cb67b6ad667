import { expect } from "vitest";
import type { ParkLedger } from "../vocabulary/park-ledger";
import {
  claimAnswer,
  freshId,
  pause,
  resultFor,
  sessionCheck,
  type CheckBody,
  type ParkLedgerCheck,
  type ParkLedgerHarness,
} from "./park-ledger-harness";

/**
 * A lease short enough to lapse within a check, yet long enough that a busy machine's next query
 * lands inside it; and a wait that is surely past it.
 */
const SHORT_LEASE_MS = 150;
const PAST_LEASE_MS = 450;

/**
 * What a ledger whose claims and executions are leases promises: a claim that lapsed before the
 * call started is granted again (the call never ran); an execution that lapsed is an unknown
 * outcome to everyone, never a grant; a live execution is renewed; a holder that lost its lease
 * marks nothing.
 */
export function leaseChecks<L extends ParkLedger>(harness: ParkLedgerHarness<L>): ParkLedgerCheck[] {
  const check = (name: string, body: CheckBody<L>) => sessionCheck(harness, name, body);
  const die = (ledger: L) => harness.leases!.die(ledger);
  return [
    check("a claim that lapsed before the call started is granted again, to exactly one of eight", async (session) => {
      const id = freshId("lapsed");
      expect(await claimAnswer(await session.leased(SHORT_LEASE_MS), id)).toEqual({ status: "granted" });
      await pause(PAST_LEASE_MS);
      const ledgers = await Promise.all(Array.from({ length: 8 }, () => session.open()));
      const answers = await Promise.all(ledgers.map((ledger) => claimAnswer(ledger, id)));
      expect(answers.filter((a) => a.status === "granted")).toHaveLength(1);
      expect(answers.filter((a) => a.status === "refused")).toHaveLength(7);
    }),
    check(
      "a holder whose claim lapsed and was taken over can neither start the call nor record one",
      async (session) => {
        const slow = await session.leased(SHORT_LEASE_MS);
        const id = freshId("taken");
        expect(await claimAnswer(slow, id)).toEqual({ status: "granted" });
        await pause(PAST_LEASE_MS);
        const other = await session.open();
        expect(await claimAnswer(other, id)).toEqual({ status: "granted" });
        await expect(slow.executing!(id)).rejects.toBeInstanceOf(Error);
        await expect(slow.executed!(id, resultFor(id, "slow ran"))).rejects.toBeInstanceOf(Error);
        await other.executed!(id, resultFor(id, "other ran"));
        expect(await claimAnswer(slow, id)).toEqual({ status: "recorded", result: resultFor(id, "other ran") });
      },
    ),
    check("an execution that lapsed is an unknown outcome to every later claim, never a grant", async (session) => {
      const stalled = await session.leased(SHORT_LEASE_MS);
      const id = freshId("unknown");
      expect(await claimAnswer(stalled, id)).toEqual({ status: "granted" });
      await stalled.executing!(id);
      die(stalled);
      await pause(PAST_LEASE_MS);
      const ledgers = await Promise.all(Array.from({ length: 8 }, () => session.open()));
      const answers = await Promise.all(ledgers.map((ledger) => claimAnswer(ledger, id)));
      const unknown = { status: "refused", reason: "unknown_outcome" };
      expect(answers).toEqual(ledgers.map(() => unknown));
      expect(await claimAnswer(await session.open(), id)).toEqual(unknown);
    }),
    check("once a lapsed execution was seen, its holder's late result does not count", async (session) => {
      const stalled = await session.leased(SHORT_LEASE_MS);
      const id = freshId("late");
      expect(await claimAnswer(stalled, id)).toEqual({ status: "granted" });
      await stalled.executing!(id);
      die(stalled);
      await pause(PAST_LEASE_MS);
      const unknown = { status: "refused", reason: "unknown_outcome" };
      expect(await claimAnswer(await session.open(), id)).toEqual(unknown);
      await expect(stalled.executed!(id, resultFor(id, "late"))).rejects.toBeInstanceOf(Error);
      expect(await claimAnswer(stalled, id)).toEqual(unknown);
      await expect(stalled.executing!(id)).rejects.toBeInstanceOf(Error);
    }),
    check("a live execution is renewed: a call slower than the lease is not taken for a dead one", async (session) => {
      const live = await session.leased(SHORT_LEASE_MS);
      const id = freshId("live");
      expect(await claimAnswer(live, id)).toEqual({ status: "granted" });
      await live.executing!(id);
      await pause(PAST_LEASE_MS * 3);
      expect(await claimAnswer(await session.open(), id)).toEqual({ status: "refused", reason: "in_progress" });
      await live.executed!(id, resultFor(id, "slow but done"));
      expect(await claimAnswer(await session.open(), id)).toEqual({
        status: "recorded",
        result: resultFor(id, "slow but done"),
      });
    }),
  ];
}
