import { expect } from "vitest";
import type { ParkLedger } from "../vocabulary/park-ledger";
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
  expect(typeof ledger.settled, "the harness says `records`, but the ledger has no `settled`").toBe("function");
  return {
    claim: (parkId) => ledger.claim(parkId),
    executing: (parkId) => ledger.executing!(parkId),
    executed: (parkId, result) => ledger.executed!(parkId, result),
    settled: (parkId) => ledger.settled!(parkId),
  };
}

/**
 * What a ledger that implements `executing`, `executed` and `settled` promises: a recorded result
 * is what every later claim answers (so a resume that died after the call never runs it again)
 * until the run settles, then every claim is `replayed`; only the ledger that holds a park marks it.
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
    check(
      "a settled park is replayed for every later claim: its recorded result is never handed out again",
      async (session) => {
        const [a, b] = [marks(await session.open()), marks(await session.open())];
        for (const [id, outcome] of [
          [freshId("settled-ran"), "ran"],
          [freshId("settled-denied"), "denied"],
        ] as const) {
          expect(await claimAnswer(a, id)).toEqual({ status: "granted" });
          if (outcome === "ran") await a.executing(id);
          await a.executed(id, resultFor(id, outcome));
          await a.settled(id);
          const replayed = { status: "refused", reason: "replayed" };
          expect(await claimAnswer(b, id), outcome).toEqual(replayed);
          expect(await claimAnswer(a, id), outcome).toEqual(replayed);
          expect(await claimAnswer(await session.open(), id), outcome).toEqual(replayed);
        }
      },
    ),
    check("only the holder settles a park, and only once its result is recorded", async (session) => {
      const [a, b] = [marks(await session.open()), marks(await session.open())];
      const id = freshId("settle-fence");
      await expect(a.settled(id), "never claimed").rejects.toBeInstanceOf(Error);
      expect(await claimAnswer(a, id)).toEqual({ status: "granted" });
      await a.executing(id);
      await expect(a.settled(id), "still executing").rejects.toBeInstanceOf(Error);
      await a.executed(id, resultFor(id, "ran"));
      await expect(b.settled(id), "not the holder").rejects.toBeInstanceOf(Error);
      expect(await claimAnswer(b, id)).toEqual({ status: "recorded", result: resultFor(id, "ran") });
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
