import { randomUUID } from "node:crypto";
import type { ToolResultMessage } from "@x/llm-types";
import { expect } from "vitest";
import { claimOf, type ParkClaim, type ParkLedger } from "../vocabulary/park-ledger";

type MaybePromise<T> = T | Promise<T>;

/** What a park-ledger backend's own test file hands to `runParkLedgerConformance`. */
export interface ParkLedgerHarness<L extends ParkLedger = ParkLedger> {
  /** Shown in the suite's title. */
  name: string;
  /**
   * A ledger over the one storage every call shares: two calls stand for two processes (a ledger
   * that keeps an owner gives each call its own). Every check uses fresh ids, so the storage may
   * be shared with other tests and outlive the suite.
   */
  open(): MaybePromise<L>;
  /** Stops what a ledger keeps running (renewal timers); called after each check for each it opened. */
  close?(ledger: L): MaybePromise<void>;
  /** The ledger implements `executing`, `executed` and `settled`: the record checks run. */
  records?: boolean;
  /** A ledger whose storage fails now, and what makes it work: a failed claim must claim nothing. */
  unavailable?: () => Promise<{ ledger: L; repair: () => Promise<void> }>;
  /** The ledger's claims and executions are leases: the lease checks run. */
  leases?: {
    /** A ledger over the shared storage whose leases last `leaseMs` unless renewed. */
    open(leaseMs: number): MaybePromise<L>;
    /** What a process's death does to its ledger: it renews nothing and says nothing from now on. */
    die(ledger: L): void;
  };
}

/** One contract item, runnable on its own: the suite registers each as a test. */
export interface ParkLedgerCheck {
  name: string;
  run(): Promise<void>;
}

/** The ledgers one check opened, closed when it ends however it ends. */
export interface LedgerSession<L extends ParkLedger> {
  open(): Promise<L>;
  leased(leaseMs: number): Promise<L>;
  closeAll(): Promise<void>;
}

function ledgerSession<L extends ParkLedger>(harness: ParkLedgerHarness<L>): LedgerSession<L> {
  const opened: L[] = [];
  const track = (ledger: L) => {
    opened.push(ledger);
    return ledger;
  };
  return {
    open: async () => track(await harness.open()),
    async leased(leaseMs) {
      if (!harness.leases) throw new Error(`${harness.name}: a lease check ran without \`leases\``);
      return track(await harness.leases.open(leaseMs));
    },
    async closeAll() {
      for (const ledger of opened.splice(0)) await harness.close?.(ledger);
    },
  };
}

export type CheckBody<L extends ParkLedger> = (session: LedgerSession<L>) => Promise<void>;

/** A check whose ledgers are closed when it ends, however it ends. */
export function sessionCheck<L extends ParkLedger>(
  harness: ParkLedgerHarness<L>,
  name: string,
  body: CheckBody<L>,
): ParkLedgerCheck {
  return {
    name,
    async run() {
      const session = ledgerSession(harness);
      try {
        await body(session);
      } finally {
        await session.closeAll();
      }
    },
  };
}

/** An id no other check (or earlier run against a kept storage) uses; safe as a file name. */
export const freshId = (label: string): string => `${label}-${randomUUID()}`;

const STATUSES: readonly string[] = ["granted", "recorded", "refused"];
const REASONS: readonly string[] = ["replayed", "in_progress", "unknown_outcome"];

/** A ledger's answer in its full form, failing the check when it is not one the runner reads. */
export async function claimAnswer(ledger: ParkLedger, parkId: string): Promise<ParkClaim> {
  const answer = claimOf(await ledger.claim(parkId));
  expect(STATUSES, `claim answered ${JSON.stringify(answer)}`).toContain(answer.status);
  if (answer.status === "refused") expect(REASONS).toContain(answer.reason);
  return answer;
}

export const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A result with every part a ledger must keep as it was given: an error flag, details, non-ASCII text. */
export function resultFor(parkId: string, text: string): ToolResultMessage {
  return {
    role: "toolResult",
    toolCallId: `call-${parkId}`,
    toolName: "deploy",
    content: [
      { type: "text", text },
      { type: "text", text: 'ünïcødé ✓ \u2028 "quoted" nul \u0000 inside' },
    ],
    details: { exitCode: 2, nested: { list: [1, "two", null] } },
    isError: true,
    timestamp: 1_764_633_600_000,
  };
}
