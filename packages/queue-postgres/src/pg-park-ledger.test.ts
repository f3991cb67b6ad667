import type { ToolResultMessage } from "@x/llm-types";
import type { ParkClaim } from "@x/runner/backend";
import { parkLedgerChecks, runParkLedgerConformance, type ParkLedgerHarness } from "@x/runner/testing";
import { afterAll, describe, expect, it } from "vitest";
import { PG_URL, useHarness } from "../test/harness";
import { createPostgresParkLedger, ensureSchema, type PostgresParkLedger } from "./index";

const h = useHarness("ledger");
const ledger = (owner: string, leaseMs = 5_000, schema = h.schema) =>
  createPostgresParkLedger({ db: h.admin, schema, owner, leaseMs });
const result = (text: string): ToolResultMessage => ({
  role: "toolResult",
  toolCallId: "c",
  toolName: "t",
  content: [{ type: "text", text }],
  isError: false,
  timestamp: 1,
});
const rowOf = async (parkId: string) =>
  (
    await h.admin.query<{ state: string; owner: string; result: ToolResultMessage | null }>(
      `SELECT state, owner, result FROM ${h.schema}.park_calls WHERE park_id = $1`,
      [parkId],
    )
  ).rows[0];
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** A claim that `owner` executes, then stops renewing (its process "dies" or stalls) until the lease lapsed. */
async function lapsedExecution(parkId: string, owner = "a") {
  const stalled = ledger(owner, 60);
  await stalled.claim(parkId);
  await stalled.executing!(parkId);
  stalled.close();
  await pause(150);
  return stalled;
}

describe.runIf(PG_URL)("PostgreSQL park ledger", () => {
  it("claimed → executing → done; a later claim gets the recorded result, never a grant", async () => {
    const a = ledger("a");
    expect(await a.claim("p-done")).toEqual({ status: "granted" });
    expect((await rowOf("p-done"))?.state).toBe("claimed");
    expect(await ledger("b").claim("p-done")).toEqual({ status: "refused", reason: "in_progress" });
    await a.executing!("p-done");
    expect((await rowOf("p-done"))?.state).toBe("executing");
    expect(await ledger("b").claim("p-done")).toEqual({ status: "refused", reason: "in_progress" });
    await a.executed!("p-done", result("ran"));
    expect(await rowOf("p-done")).toEqual({ state: "done", owner: "a", result: result("ran") });
    expect(await ledger("b").claim("p-done")).toEqual({ status: "recorded", result: result("ran") });
    expect(await a.claim("p-done")).toEqual({ status: "recorded", result: result("ran") });
    a.close();
  });

  it("claimed → done without executing: a denial's result is recorded the same way", async () => {
    const a = ledger("a");
    await a.claim("p-deny");
    await a.executed!("p-deny", result("denied"));
    expect((await rowOf("p-deny"))?.state).toBe("done");
    expect(await ledger("b").claim("p-deny")).toEqual({ status: "recorded", result: result("denied") });
  });

  it("a process whose claim lapsed and was taken over cannot start the call, nor record one", async () => {
    const slow = ledger("slow", 50);
    await slow.claim("p-taken");
    await pause(120);
    const other = ledger("other");
    expect(await other.claim("p-taken")).toEqual({ status: "granted" });
    await expect(slow.executing!("p-taken")).rejects.toThrow(/no longer claimed by slow/);
    await expect(slow.executed!("p-taken", result("slow ran"))).rejects.toThrow(/slow no longer holds/);
    expect(await rowOf("p-taken")).toMatchObject({ state: "claimed", owner: "other", result: null });
  });

  it("executing → unknown_outcome when the lease lapsed: every later claim is refused, none granted", async () => {
    await lapsedExecution("p-unknown");
    expect((await rowOf("p-unknown"))?.state).toBe("executing");
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => ledger(`w${i}`).claim("p-unknown")));
    expect(answers).toEqual(Array.from({ length: 8 }, () => ({ status: "refused", reason: "unknown_outcome" })));
    expect((await rowOf("p-unknown"))?.state).toBe("unknown_outcome");
    expect(await ledger("late").claim("p-unknown")).toEqual({ status: "refused", reason: "unknown_outcome" });
  });

  it("a process that lost its lease while executing cannot record done, nor run the call again", async () => {
    const stalled = await lapsedExecution("p-stalled", "stalled");
    expect(await ledger("b").claim("p-stalled")).toEqual({ status: "refused", reason: "unknown_outcome" });
    // The stalled process wakes up and finishes: its word no longer counts, a person's does.
    await expect(stalled.executed!("p-stalled", result("late"))).rejects.toThrow(/stalled no longer holds/);
    expect(await rowOf("p-stalled")).toMatchObject({ state: "unknown_outcome", result: null });
    expect(await stalled.claim("p-stalled")).toEqual({ status: "refused", reason: "unknown_outcome" });
    await expect(stalled.executing!("p-stalled")).rejects.toThrow(/no longer claimed/);
  });

  it("a lapsed execution that nobody looked at yet is still its process's to record", async () => {
    const stalled = await lapsedExecution("p-quiet", "quiet");
    await stalled.executed!("p-quiet", result("finished late"));
    expect(await ledger("b").claim("p-quiet")).toEqual({ status: "recorded", result: result("finished late") });
  });

  it("a live execution keeps its lease renewed, so a slow call is not mistaken for a dead one", async () => {
    const a = ledger("a", 90);
    await a.claim("p-live");
    await a.executing!("p-live");
    await pause(300);
    expect(await ledger("b").claim("p-live")).toEqual({ status: "refused", reason: "in_progress" });
    await a.executed!("p-live", result("slow but done"));
    expect((await rowOf("p-live"))?.state).toBe("done");
    a.close();
  });
});

let owners = 0;
const downSchemas: string[] = [];
afterAll(async () => {
  for (const schema of downSchemas) await h.admin?.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
});

interface Fault {
  /** Stands between the ledger and the suite. */
  wrap?: (inner: PostgresParkLedger) => PostgresParkLedger;
  /** The lease a "short" lease becomes. */
  leaseMs?: (asked: number) => number;
}

/** Every ledger a new process (its own owner); a schema not made yet is storage that fails until made. */
function postgresHarness({ wrap = (l) => l, leaseMs = (asked) => asked }: Fault = {}) {
  return {
    name: "PostgreSQL",
    open: () => wrap(ledger(`w${++owners}`)),
    close: (l) => l.close(),
    records: true,
    leases: { open: (asked) => wrap(ledger(`w${++owners}`, leaseMs(asked))), die: (l) => l.close() },
    async unavailable() {
      const schema = `${h.schema}_down${downSchemas.length + 1}`;
      downSchemas.push(schema);
      return { ledger: wrap(ledger(`w${++owners}`, 5_000, schema)), repair: () => ensureSchema(h.admin, schema) };
    },
  } satisfies ParkLedgerHarness<PostgresParkLedger>;
}

/** The names of the checks that fail against the faulty ledger. */
async function failingChecks(fault: Fault): Promise<string[]> {
  const failed: string[] = [];
  for (const check of parkLedgerChecks(postgresHarness(fault))) {
    await check.run().catch(() => failed.push(check.name));
  }
  return failed;
}

describe.runIf(PG_URL)("PostgreSQL park ledger, against the contract every ledger keeps", () => {
  runParkLedgerConformance(postgresHarness());

  it("the suite fails on a ledger that grants a lapsed execution again", async () => {
    const regrant = (inner: PostgresParkLedger): PostgresParkLedger => ({
      ...inner,
      async claim(parkId): Promise<boolean | ParkClaim> {
        const answer = await inner.claim(parkId);
        const unknown =
          typeof answer === "object" && answer.status === "refused" && answer.reason === "unknown_outcome";
        return unknown ? { status: "granted" } : answer;
      },
    });
    expect(await failingChecks({ wrap: regrant })).toEqual([
      expect.stringMatching(/^an execution that lapsed/),
      expect.stringMatching(/^once a lapsed execution was seen/),
    ]);
  });

  it("the suite fails on a ledger whose leases never lapse", async () => {
    expect(await failingChecks({ leaseMs: () => 3_600_000 })).toEqual([
      expect.stringMatching(/^a claim that lapsed before the call started/),
      expect.stringMatching(/^a holder whose claim lapsed/),
      expect.stringMatching(/^an execution that lapsed/),
      expect.stringMatching(/^once a lapsed execution was seen/),
    ]);
  });
});
