import { randomBytes } from "node:crypto";
import { expect } from "vitest";
import type { StrategyInput } from "../record";
import type { StrategyStore, StrategyStoreOptions } from "../store";

type MaybePromise<T> = T | Promise<T>;

/** What a backend's test file hands to `runStrategyStoreConformance`. */
export interface ConformanceHarness {
  /** Shown in test titles. */
  name: string;
  /** Opens a store. Tests use their own random scopes, so a shared database is fine. */
  open(options?: StrategyStoreOptions): MaybePromise<StrategyStore>;
  /** A second, independent instance (own connection/pool) on the same database as the last `open`. */
  openSecond?(options?: StrategyStoreOptions): MaybePromise<StrategyStore>;
  /** Opens the database of the last `open` again after that store was closed (durable backends). */
  reopen?(options?: StrategyStoreOptions): MaybePromise<StrategyStore>;
  /** fast-check runs for the scope-isolation property (default 15). */
  propertyRuns?: number;
}

/** A scope no other test (or earlier run against a kept database) uses. */
export function uniqueScope(label: string): string {
  return `${label}-${randomBytes(6).toString("hex")}`;
}

export function sample(scope: string, n: number, extra: Partial<StrategyInput> = {}): StrategyInput {
  return {
    scope,
    problem: `sample problem number ${n} about flaky widget deployment`,
    strategy: `sample strategy number ${n}: restart the widget service and check its logs`,
    confidence: 2,
    source: "teacher",
    ...extra,
  };
}

/**
 * Two records of one scope sharing a word, with a query touching problem, strategy and tag words of
 * both: what an upgrade test writes before rewinding a migration, then searches for again.
 */
export const upgradeSample = {
  inputs: [
    { scope: "one", problem: "disk fills up", strategy: "rotate the logs", confidence: 1, source: "t", tags: ["ops"] },
    { scope: "one", problem: "disk is slow", strategy: "check the raid", confidence: 1, source: "t" },
  ],
  search: { scope: "one", query: "disk logs ops raid", k: 3 },
} satisfies { inputs: StrategyInput[]; search: { scope: string; query: string; k: number } };

/** Runs `body` with a freshly opened store and always closes it. */
export async function withStore<T>(
  harness: ConformanceHarness,
  body: (store: StrategyStore) => Promise<T>,
  options?: StrategyStoreOptions,
): Promise<T> {
  const store = await harness.open(options);
  try {
    return await body(store);
  } finally {
    await store.close();
  }
}

export async function expectStoreError(promise: Promise<unknown>, code: string): Promise<Error> {
  let caught: unknown;
  try {
    await promise;
  } catch (error) {
    caught = error;
  }
  expect(caught, `expected a StrategyStoreError with code ${code}`).toBeInstanceOf(Error);
  expect(caught).toMatchObject({ name: "StrategyStoreError", code });
  return caught as Error;
}

/** All records of a scope, following cursors. */
export async function listAll(store: StrategyStore, scope: string, limit = 100) {
  const records = [];
  let cursor: string | undefined;
  do {
    const page = await store.list({ scope, limit, ...(cursor === undefined ? {} : { cursor }) });
    records.push(...page.records);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return records;
}
