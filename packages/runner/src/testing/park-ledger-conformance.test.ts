import type { ToolResultMessage } from "@x/llm-types";
import { describe, expect, it } from "vitest";
import { createMemoryParkLedger } from "../effects/park-ledgers";
import { type ParkClaim, type ParkLedger } from "../vocabulary/park-ledger";
import { parkLedgerChecks } from "./park-ledger-checks";
import type { ParkLedgerHarness } from "./park-ledger-harness";

/** The names of the checks that fail against the harness's ledger. */
async function failing(harness: ParkLedgerHarness): Promise<string[]> {
  const failed: string[] = [];
  for (const check of parkLedgerChecks(harness)) {
    try {
      await check.run();
    } catch {
      failed.push(check.name);
    }
  }
  return failed;
}

/** A shared in-memory ledger that records and fences by holder, for the record checks; `change` breaks one part. */
function recordingLedgers(
  change: { forget?: boolean; unfenced?: boolean; unsettled?: boolean } = {},
): ParkLedgerHarness {
  const rows = new Map<string, { holder: number; result?: ToolResultMessage; settled?: boolean }>();
  let next = 0;
  const open = (): ParkLedger => {
    const me = ++next;
    const held = (parkId: string) => {
      const row = rows.get(parkId);
      if (!row || (row.holder !== me && !change.unfenced)) throw new Error(`park ${parkId} is not held by ${me}`);
      return row;
    };
    return {
      async claim(parkId): Promise<ParkClaim> {
        const row = rows.get(parkId);
        if (!row) {
          rows.set(parkId, { holder: me });
          return { status: "granted" };
        }
        if (row.settled) return { status: "refused", reason: "replayed" };
        return row.result ? { status: "recorded", result: row.result } : { status: "refused", reason: "in_progress" };
      },
      async executing(parkId) {
        held(parkId);
      },
      async executed(parkId, result) {
        const row = held(parkId);
        if (!change.forget) row.result = structuredClone(result);
      },
      async settled(parkId) {
        const row = held(parkId);
        if (!row.result) throw new Error(`park ${parkId} has no recorded result to settle`);
        if (!change.unsettled) row.settled = true;
      },
    };
  };
  return { name: "recording", open, records: true };
}

describe("the park-ledger conformance suite fails on a broken ledger", () => {
  it("passes on the memory ledger and a correct recording one: each mutant below fails for its fault", async () => {
    const memory = createMemoryParkLedger();
    expect(await failing({ name: "memory", open: () => memory })).toEqual([]);
    expect(await failing(recordingLedgers())).toEqual([]);
  });

  it("a ledger that grants every claim fails claim once and double claim", async () => {
    const failed = await failing({ name: "grants twice", open: () => ({ claim: async () => true }) });
    expect(failed).toEqual([
      expect.stringMatching(/^claim once/),
      expect.stringMatching(/^double claim refused/),
      expect.stringMatching(/^ids are independent/),
      expect.stringMatching(/^an id the ledger cannot keep/),
    ]);
  });

  it("a ledger each process keeps to itself fails claim once (on another) and double claim", async () => {
    const failed = await failing({ name: "unshared", open: () => createMemoryParkLedger() });
    expect(failed).toEqual([
      expect.stringMatching(/^claim once/),
      expect.stringMatching(/^double claim refused/),
      expect.stringMatching(/^ids are independent/),
      expect.stringMatching(/^an id the ledger cannot keep/),
    ]);
  });

  it("a ledger that folds lookalike ids onto one fails the odd-id check alone", async () => {
    const claimed = new Set<string>();
    const folding: ParkLedger = {
      async claim(parkId) {
        const key = parkId.replace(/[^A-Za-z0-9_-]/g, "").slice(0, 200);
        if (claimed.has(key)) return false;
        claimed.add(key);
        return true;
      },
    };
    expect(await failing({ name: "folding", open: () => folding })).toEqual([
      expect.stringMatching(/^an id the ledger cannot keep/),
    ]);
  });

  it("a ledger that answers a status the runner does not read fails", async () => {
    const odd = { claim: async () => ({ status: "maybe" }) as unknown as ParkClaim };
    expect(await failing({ name: "odd answer", open: () => odd })).toHaveLength(4);
  });

  it("a storage failure read as a refusal, or a failed claim that claims, fails the unavailable check", async () => {
    const refusesWhenDown = createMemoryParkLedger();
    const downAsRefusal: ParkLedgerHarness = {
      name: "down as refusal",
      open: () => refusesWhenDown,
      async unavailable() {
        let down = true;
        const ledger: ParkLedger = { claim: async (id) => (down ? false : refusesWhenDown.claim(id)) };
        return { ledger, repair: async () => void (down = false) };
      },
    };
    expect(await failing(downAsRefusal)).toEqual([expect.stringMatching(/^a claim its storage fails/)]);

    const claimsWhenDown = createMemoryParkLedger();
    const claimedAnyway: ParkLedgerHarness = {
      name: "claims when down",
      open: () => claimsWhenDown,
      async unavailable() {
        let down = true;
        const ledger: ParkLedger = {
          async claim(id) {
            const answer = await claimsWhenDown.claim(id);
            if (down) throw new Error("disk full");
            return answer;
          },
        };
        return { ledger, repair: async () => void (down = false) };
      },
    };
    expect(await failing(claimedAnyway)).toEqual([expect.stringMatching(/^a claim its storage fails/)]);
  });

  it("a recording ledger that forgets results, lets anyone mark a park or never settles fails its checks", async () => {
    expect(await failing(recordingLedgers({ forget: true }))).toEqual([
      expect.stringMatching(/^a recorded result is every later claim's answer/),
      expect.stringMatching(/^a settled park is replayed/),
      expect.stringMatching(/^only the holder settles/),
      expect.stringMatching(/^a denial's result/),
      expect.stringMatching(/^only the holder marks/),
    ]);
    expect(await failing(recordingLedgers({ unfenced: true }))).toEqual([
      expect.stringMatching(/^only the holder settles/),
      expect.stringMatching(/^only the holder marks/),
    ]);
    // The mutant a resumed finished run re-ran with: the recorded result handed out after the run moved on.
    expect(await failing(recordingLedgers({ unsettled: true }))).toEqual([
      expect.stringMatching(/^a settled park is replayed/),
    ]);
  });

  it("a ledger that says `records` but has no marks fails every record check", async () => {
    const memory = createMemoryParkLedger();
    expect(await failing({ name: "no marks", open: () => memory, records: true })).toHaveLength(6);
  });
});
