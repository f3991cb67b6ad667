import { expect } from "vitest";
import type { ParkLedger } from "../vocabulary/park-ledger";
import {
  claimAnswer,
  freshId,
  sessionCheck,
  type CheckBody,
  type ParkLedgerCheck,
  type ParkLedgerHarness,
} from "./park-ledger-harness";

/**
 * Ids a careless ledger could map onto another (a path, a trimmed or truncated key, a dropped
 * character) or could not keep (a NUL byte, ten thousand characters).
 */
const lookalikes = (id: string): string[] => [
  `../${id}`,
  `./${id}`,
  `${id}/..`,
  `${id}.claimed`,
  `${id}\u0000`,
  `${id} `,
  ` ${id}`,
  `${id}\n`,
  `${id}${"x".repeat(10_000)}`,
];

/** What every ledger promises: each id is granted once, across every process sharing it. */
export function claimChecks<L extends ParkLedger>(harness: ParkLedgerHarness<L>): ParkLedgerCheck[] {
  const check = (name: string, body: CheckBody<L>) => sessionCheck(harness, name, body);
  const checks = [
    check("claim once: a fresh id is granted, then refused on this ledger and on another", async (session) => {
      const [a, b] = [await session.open(), await session.open()];
      const id = freshId("once");
      expect(await claimAnswer(a, id)).toEqual({ status: "granted" });
      expect((await claimAnswer(a, id)).status).toBe("refused");
      expect((await claimAnswer(b, id)).status).toBe("refused");
      expect((await claimAnswer(await session.open(), id)).status).toBe("refused");
    }),
    check("double claim refused: of sixteen ledgers racing for one id, exactly one is granted", async (session) => {
      const ledgers = await Promise.all(Array.from({ length: 16 }, () => session.open()));
      const id = freshId("race");
      const answers = await Promise.all(ledgers.map((ledger) => claimAnswer(ledger, id)));
      expect(answers.filter((a) => a.status === "granted")).toHaveLength(1);
      expect(answers.filter((a) => a.status === "refused")).toHaveLength(15);
    }),
    check("ids are independent: granting one id consumes no other", async (session) => {
      const [a, b] = [await session.open(), await session.open()];
      const id = freshId("own");
      const ids = [id, `${id}-2`, `${id}_`, `x${id}`, id.slice(0, -1)];
      for (const each of ids) expect(await claimAnswer(a, each), each).toEqual({ status: "granted" });
      for (const each of ids) expect((await claimAnswer(b, each)).status, each).toBe("refused");
    }),
    check("an id the ledger cannot keep as given is refused by throwing, never taken for another", async (session) => {
      const [a, b] = [await session.open(), await session.open()];
      const id = freshId("odd");
      for (const odd of lookalikes(id)) {
        let first;
        try {
          first = await claimAnswer(a, odd);
        } catch (error) {
          // An assertion about the answer's form is the check failing, not the ledger refusing the id.
          if ((error as Error).name === "AssertionError") throw error;
          continue;
        }
        expect(first, JSON.stringify(odd.slice(0, 60))).toEqual({ status: "granted" });
        expect((await claimAnswer(b, odd)).status).toBe("refused");
      }
      expect(await claimAnswer(b, id)).toEqual({ status: "granted" });
    }),
  ];
  const { unavailable } = harness;
  if (unavailable) {
    checks.push(
      check("a claim its storage fails is an error, not a refusal, and claims nothing", async () => {
        const { ledger, repair } = await unavailable();
        const id = freshId("down");
        try {
          await expect(ledger.claim(id)).rejects.toBeInstanceOf(Error);
          await repair();
          expect(await claimAnswer(ledger, id)).toEqual({ status: "granted" });
          expect((await claimAnswer(ledger, id)).status).toBe("refused");
        } finally {
          await harness.close?.(ledger);
        }
      }),
    );
  }
  return checks;
}
