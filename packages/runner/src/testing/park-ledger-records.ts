import { expect } from "vitest";
import type { ParkLedger } from "../park-ledger";
import {
  claimAnswer,
  freshId,
  resultFor,
  sessionCheck,
  type CheckBody,
  type ParkLedgerCheck,
  type ParkLedgerHarness,
} from "./park-ledger-harness";

/** The ledger with both marks the runner calls around the decided call; the check fails without them. */
function marks(ledger: ParkLedger): Required<ParkLedger> {
  expect(typeof ledger.executing, "the harness says `records`, but the ledger has no `executing`").toBe("function");
  expect(typeof ledger.executed, "the harness says `records`, but the ledger has no `executed`").toBe("function");
  return {
    claim: (parkId) => ledger.claim(parkId),
    executing: (parkId) => ledger.executing!(parkId),
    executed: (parkId, result) => ledger.executed!(parkId, result),
  };
}

/**
 * What a ledger that implements `executing` and `executed` promises: a recorded result is what
 * every later claim answers (so a resume that died after the call never runs it again), and only
 * the ledger that holds a park marks it.
 */
export function recordChecks<L extends ParkLedger>(harness: ParkLedgerHarness<L>): ParkLedgerCheck[] {
  const check = (name: string, body: CheckBody<L>) => sessionCheck(harness, name, body);
  return [
    check("a recorded result is every later claim's answer, in full, and never a grant", async (session) => {
      const [a, b] = [marks(await session.open()), marks(await session.open())];
      const id = freshId("done");
      expect(await claimAnswer(a, id)).toEqual({ status: "granted" });
      await a.executing(id);
      expect((await claimAnswer(b, id)).status, "claimed while the call runs").toBe("refused");
      await a.executed(id, resultFor(id, "ran"));
      const recorded = { status: "recorded", result: resultFor(id, "ran") };
      expect(await claimAnswer(b, id)).toEqual(recorded);
      expect(await claimAnswer(a, id)).toEqual(recorded);
      expect(await claimAnswer(await session.open(), id)).toEqual(recorded);
    }),
    check("a denial's result, recorded without executing, is answered the same way", async (session) => {
      const [a, b] = [marks(await session.open()), marks(await session.open())];
      const id = freshId("deny");
      expect(await claimAnswer(a, id)).toEqual({ status: "granted" });
      await a.executed(id, resultFor(id, "denied"));
      expect(await claimAnswer(b, id)).toEqual({ status: "recorded", result: resultFor(id, "denied") });
    }),
    check("only the holder marks a park: another ledger's executing or executed is refused", async (session) => {
      const [a, b] = [marks(await session.open()), marks(await session.open())];
      const id = freshId("fence");
      expect(await claimAnswer(a, id)).toEqual({ status: "granted" });
      await expect(b.executing(id)).rejects.toBeInstanceOf(Error);
      await expect(b.executed(id, resultFor(id, "intruder"))).rejects.toBeInstanceOf(Error);
      await a.executing(id);
      await expect(b.executed(id, resultFor(id, "intruder"))).rejects.toBeInstanceOf(Error);
      await a.executed(id, resultFor(id, "holder"));
      expect(await claimAnswer(b, id)).toEqual({ status: "recorded", result: resultFor(id, "holder") });
    }),
    check("a park nobody claimed cannot be marked, and stays free to claim", async (session) => {
      const [a, b] = [marks(await session.open()), marks(await session.open())];
      const id = freshId("unclaimed");
      await expect(a.executing(id)).rejects.toBeInstanceOf(Error);
      await expect(a.executed(id, resultFor(id, "never claimed"))).rejects.toBeInstanceOf(Error);
      expect(await claimAnswer(b, id)).toEqual({ status: "granted" });
    }),
  ];
}
