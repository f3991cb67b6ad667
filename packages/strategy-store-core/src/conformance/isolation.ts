import fc from "fast-check";
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { StrategyRecord } from "../record";
import type { StrategyStore } from "../store";
import type { ConformanceHarness } from "./harness";
import { expectStoreError, listAll, uniqueScope, withStore } from "./harness";

const VOCAB = [
  "deploy",
  "timeout",
  "retry",
  "cache",
  "index",
  "merge",
  "token",
  "parser",
  "socket",
  "quota",
  "tenant",
  "secret",
];

// Scopes that break naive implementations: LIKE wildcards, quotes, FTS syntax, case and unicode twins.
const trickyScope = fc.constantFrom(
  "%",
  "_",
  "a%",
  "A",
  "a",
  "'",
  "''",
  '"',
  "\\",
  "*",
  "NEAR",
  "a b",
  "é",
  "e\u0301",
  "租户",
  "🙂",
  "OR 1=1",
);
const anyScope = fc
  .string({ minLength: 1, maxLength: 16, unit: "grapheme" })
  .filter((s) => s.trim().length > 0 && !s.includes("\u0000"));

/**
 * Property: whatever scopes and queries, a store never returns, counts or mentions a record of
 * another scope — in hits, lists, gets, outcomes, deletes, or error messages.
 */
export function isolationSuite(h: ConformanceHarness): void {
  describe("scope isolation", () => {
    it("property: random scopes and queries never return, count or mention another scope's records", () =>
      withStore(h, async (store) => {
        await fc.assert(
          fc.asyncProperty(
            fc.uniqueArray(fc.oneof(trickyScope, anyScope), { minLength: 2, maxLength: 4 }),
            fc.array(
              fc.record({
                owner: fc.nat(),
                words: fc.array(fc.constantFrom(...VOCAB), { minLength: 1, maxLength: 5 }),
              }),
              { minLength: 1, maxLength: 10 },
            ),
            fc.array(fc.array(fc.constantFrom(...VOCAB, "%", "'", "*", '"', "OR"), { minLength: 1, maxLength: 4 }), {
              minLength: 1,
              maxLength: 3,
            }),
            async (suffixes, docs, queries) => {
              // A fresh run token keeps runs apart and makes any leak of a scope name detectable.
              const run = `iso${randomBytes(5).toString("hex")}`;
              const scopes = suffixes.map((suffix) => `${run}${suffix}`);
              const owned = new Map<string, StrategyRecord[]>(scopes.map((scope) => [scope, []]));
              for (const [n, doc] of docs.entries()) {
                const scope = scopes[doc.owner % scopes.length]!;
                const record = await store.put({
                  scope,
                  problem: `${doc.words.join(" ")} problem`,
                  strategy: `${doc.words.join(" ")} marker${run}n${n}`,
                  confidence: 1,
                  source: "property",
                });
                owned.get(scope)!.push(record);
              }
              for (const scope of scopes) await checkScope(store, scope, owned, queries);
            },
          ),
          { numRuns: h.propertyRuns ?? 15 },
        );
      }));

    // Corpus statistics (IDF, average length) taken over the whole table would let one tenant
    // read how often a word occurs in other tenants' records from its own scores and order.
    it("scores and order in a scope do not move when another scope's records change", () =>
      withStore(h, async (store) => {
        const mine = uniqueScope("stats-mine");
        const other = uniqueScope("stats-other");
        const put = (scope: string, problem: string, strategy: string) =>
          store.put({ scope, problem, strategy, confidence: 1, source: "stats" });
        await put(mine, "kettle descaling routine", "soak the kettle in vinegar overnight");
        await put(mine, "printer jams on thick paper", "feed the printer one sheet at a time");
        await put(mine, "garden hose leaks", "replace the washer in the hose coupling");
        const query = "kettle printer hose";
        const snapshot = async () =>
          (await store.search({ scope: mine, query, k: 10 })).map((hit) => [hit.record.id, hit.score]);
        const before = await snapshot();
        expect(before).toHaveLength(3);
        for (let i = 0; i < 25; i++)
          await put(other, `kettle problem ${i}`, `kettle fix ${i} with a longer description of steps`);
        expect(await snapshot()).toEqual(before);
      }));
  });
}

async function checkScope(
  store: StrategyStore,
  scope: string,
  owned: ReadonlyMap<string, StrategyRecord[]>,
  queries: string[][],
): Promise<void> {
  const mine = new Set(owned.get(scope)!.map((record) => record.id));
  const others = [...owned.entries()].filter(([other]) => other !== scope).flatMap(([, records]) => records);

  const listed = await listAll(store, scope, 3);
  expect(listed.map((record) => record.id).sort()).toEqual([...mine].sort());

  for (const words of [...queries, ...others.map((record) => record.strategy.split(" "))]) {
    const hits = await store.search({ scope, query: words.join(" "), k: 100 });
    for (const hit of hits) {
      expect(hit.record.scope).toBe(scope);
      expect(mine.has(hit.record.id)).toBe(true);
    }
  }

  for (const other of others) {
    expect(await store.get(scope, other.id)).toBeUndefined();
    const error = await expectStoreError(store.recordOutcome(scope, other.id, true), "not_found");
    for (const leak of [other.scope, other.strategy, other.problem]) expect(error.message).not.toContain(leak);
    expect(await store.delete(scope, other.id)).toBe(false);
    expect(await store.get(other.scope, other.id)).toMatchObject({ id: other.id, uses: 0 });
  }
}
