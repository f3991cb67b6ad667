import { describe, expect, it } from "vitest";
import type { EmbedFn, StrategyStore } from "../store";
import type { ConformanceHarness } from "./harness";
import { listAll, sample, uniqueScope, withStore } from "./harness";
import { labelledSet } from "./labelled-set";
import { referenceSearch } from "./lexical-reference";

/** Puts the labelled set into `scope`; returns the record id of each entry, in order. */
export async function putLabelledSet(store: StrategyStore, scope: string): Promise<string[]> {
  const ids: string[] = [];
  for (const entry of labelledSet) {
    ids.push(
      (
        await store.put({
          scope,
          problem: entry.problem,
          strategy: entry.strategy,
          confidence: 2,
          source: "labelled-set",
        })
      ).id,
    );
  }
  return ids;
}

// A toy embedder for the hybrid test: words of one concept share a dimension, so a query with no
// word in common with a record can still sit close to it.
const CONCEPTS = [
  ["car", "automobile", "vehicle"],
  ["engine", "motor"],
  ["start", "starting", "ignite", "crank"],
  ["dead", "broken", "fails", "failing"],
  ["sink", "basin"],
  ["drain", "drains", "drainage", "clogged"],
  ["invoice", "bill", "billing"],
];
export const conceptEmbed: EmbedFn = async (texts) =>
  texts.map((text) => {
    const words = text.toLowerCase().split(/[^a-z]+/);
    return [...CONCEPTS.map((group) => words.filter((word) => group.includes(word)).length), 0.01];
  });

export function rankingSuite(h: ConformanceHarness): void {
  describe("ranking", () => {
    it(`finds each of the ${labelledSet.length} labelled strategies in the top 3 for its paraphrased query`, () =>
      withStore(h, async (store) => {
        const scope = uniqueScope("labelled");
        const ids = await putLabelledSet(store, scope);
        const misses: string[] = [];
        for (const [i, entry] of labelledSet.entries()) {
          const hits = await store.search({ scope, query: entry.query, k: 3 });
          expect(hits.length).toBeLessThanOrEqual(3);
          if (!hits.some((hit) => hit.record.id === ids[i])) misses.push(entry.query);
        }
        expect(misses).toEqual([]);
      }));

    // The statistics are kept on write, so updates and deletes must leave them as a recount would.
    it("scores equal core's scope-local BM25F reference after puts, updates and deletes", () =>
      withStore(h, async (store) => {
        const scope = uniqueScope("reference");
        const entries = labelledSet.slice(0, 30);
        const ids = [];
        for (const entry of entries) {
          const input = { scope, problem: entry.problem, strategy: entry.strategy, confidence: 2, source: "ref" };
          ids.push((await store.put({ ...input, tags: ["alpha"] })).id);
        }
        for (const entry of entries.slice(0, 6)) {
          const problem = `${entry.problem} again after an upgrade`;
          await store.put({ scope, problem, strategy: entry.strategy, confidence: 1, source: "ref", tags: ["beta"] });
        }
        for (const id of ids.slice(20, 25)) expect(await store.delete(scope, id)).toBe(true);
        const records = await listAll(store, scope);
        expect(records).toHaveLength(25);
        for (const entry of [...entries, { query: "upgrade alpha beta again" }]) {
          const hits = await store.search({ scope, query: entry.query, k: 5 });
          const expected = referenceSearch(records, entry.query, 5);
          expect(hits.map((hit) => hit.record.id)).toEqual(expected.map((hit) => hit.record.id));
          hits.forEach((hit, i) => expect(hit.score).toBeCloseTo(expected[i]!.score, 9));
        }
      }));

    it("returns hits in descending score order, honours k and minScore", () =>
      withStore(h, async (store) => {
        const scope = uniqueScope("order");
        await putLabelledSet(store, scope);
        const hits = await store.search({ scope, query: "database query slow index transaction", k: 5 });
        expect(hits.length).toBe(5);
        for (let i = 1; i < hits.length; i++) expect(hits[i - 1]!.score).toBeGreaterThanOrEqual(hits[i]!.score);
        const threshold = hits[2]!.score;
        const above = await store.search({
          scope,
          query: "database query slow index transaction",
          k: 5,
          minScore: threshold,
        });
        expect(above.length).toBeGreaterThanOrEqual(1);
        expect(above.length).toBeLessThanOrEqual(3);
        for (const hit of above) expect(hit.score).toBeGreaterThanOrEqual(threshold);
      }));

    it("a query with no content words, or matching nothing, returns no hits", () =>
      withStore(h, async (store) => {
        const scope = uniqueScope("nothing");
        await putLabelledSet(store, scope);
        expect(await store.search({ scope, query: "", k: 3 })).toEqual([]);
        expect(await store.search({ scope, query: "the of and to", k: 3 })).toEqual([]);
        expect(await store.search({ scope, query: "xylophone zeppelin quasar", k: 3 })).toEqual([]);
      }));

    it("ranking favours what worked: among equally relevant strategies the successful one ranks first", () =>
      withStore(h, async (store) => {
        const scope = uniqueScope("outcome");
        const problem = "payment webhook arrives twice and charges the customer twice";
        const failing = await store.put({
          scope,
          problem,
          strategy: "ignore the second call",
          confidence: 2,
          source: "teacher",
        });
        const working = await store.put({
          scope,
          problem,
          strategy: "store an idempotency key per event",
          confidence: 2,
          source: "teacher",
        });
        for (let i = 0; i < 5; i++) {
          await store.recordOutcome(scope, failing.id, false);
          await store.recordOutcome(scope, working.id, true);
        }
        const hits = await store.search({
          scope,
          query: "webhook delivered twice double charge for the customer",
          k: 2,
        });
        expect(hits.map((hit) => hit.record.id)).toEqual([working.id, failing.id]);
        expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
      }));

    it("with an embed function, hybrid search finds a paraphrase sharing no word with the record", () =>
      withStore(
        h,
        async (store) => {
          const scope = uniqueScope("hybrid");
          const car = await store.put({
            scope,
            problem: "car engine will not start",
            strategy: "charge or replace the battery",
            confidence: 2,
            source: "teacher",
          });
          await store.put({
            scope,
            problem: "kitchen sink drains slowly",
            strategy: "clear the trap under the basin",
            confidence: 2,
            source: "teacher",
          });
          await store.put({
            scope,
            problem: "customer disputes an invoice",
            strategy: "send the itemised statement",
            confidence: 2,
            source: "teacher",
          });
          expect(car.embedding).toHaveLength(CONCEPTS.length + 1);
          expect((await store.get(scope, car.id))?.embedding).toHaveLength(CONCEPTS.length + 1);
          const lexical = await store.search({ scope, query: "sink drains slowly", k: 1 });
          expect(lexical[0]?.record.problem).toBe("kitchen sink drains slowly");
          const hits = await store.search({ scope, query: "automobile motor dead", k: 1 });
          if (store.vectorSearch) {
            expect(hits.map((hit) => hit.record.id)).toEqual([car.id]);
          } else {
            // A backend without vector support falls back to lexical ranking: no shared word, no hit.
            expect(hits).toEqual([]);
          }
        },
        { embed: conceptEmbed },
      ));

    it("a word found only in a record's tags finds the record", () =>
      withStore(h, async (store) => {
        const scope = uniqueScope("tags");
        const tagged = await store.put({ ...sample(scope, 1), tags: ["kubernetes"] });
        await store.put(sample(scope, 2, { strategy: "roll back the release" }));
        const hits = await store.search({ scope, query: "kubernetes", k: 3 });
        expect(hits.map((hit) => hit.record.id)).toEqual([tagged.id]);
      }));

    it("an embedding given with the input is stored as given", () =>
      withStore(h, async (store) => {
        const scope = uniqueScope("embedding");
        const record = await store.put({ ...sample(scope, 1), embedding: [0.25, -1.5, 3] });
        expect((await store.get(scope, record.id))?.embedding).toEqual([0.25, -1.5, 3]);
      }));
  });
}
