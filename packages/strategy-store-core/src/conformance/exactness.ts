import { describe, expect, it } from "vitest";
import { prng } from "../bench/synthetic";
import type { StrategyInput } from "../record";
import type { StrategyStore } from "../store";
import type { ConformanceHarness } from "./harness";
import { listAll, uniqueScope, withStore } from "./harness";
import { referenceSearch } from "./lexical-reference";

// 40 words over 2,000 records: every query term is in ~650 of them, so a search that read only each
// term's best few hundred postings would miss documents matching several terms.
const VOCABULARY = Array.from({ length: 40 }, (_, i) => `w${i.toString(36)}x${(i * 7).toString(36)}`);

/** Records the exactness check writes into its scope (before its updates and deletes). */
export const EXACTNESS_RECORDS = 2000;

function exactnessInput(scope: string, n: number, random: () => number): StrategyInput {
  const phrase = (length: number) =>
    Array.from({ length }, () => VOCABULARY[Math.floor(random() * VOCABULARY.length)]).join(" ");
  return {
    scope,
    problem: `${phrase(2 + Math.floor(random() * 8))} item${n}`,
    strategy: `${phrase(3 + Math.floor(random() * 14))} step${n}`,
    confidence: n % 4,
    source: "exact",
    ...(n % 5 === 0 ? { tags: [VOCABULARY[n % VOCABULARY.length]!] } : {}),
  };
}

/**
 * Writes {@link EXACTNESS_RECORDS} records into `scope`, rewrites 200 of them (a word more: their
 * postings change in place) and deletes 300, then asks eight queries of one to six terms with k = 10
 * and compares each answer with core's from-scratch reference ranking. Returns one line per query
 * whose ids or scores differ; empty when the store ranks exactly.
 */
export async function exactSearchMismatches(store: StrategyStore, scope: string): Promise<string[]> {
  const random = prng(42);
  const inputs = Array.from({ length: EXACTNESS_RECORDS }, (_, n) => exactnessInput(scope, n, random));
  const written = await store.putMany(inputs);
  const added = VOCABULARY[7]!;
  await store.putMany(inputs.slice(0, 200).map((input) => ({ ...input, problem: `${input.problem} ${added}` })));
  for (const one of written.slice(1000, 1300)) await store.delete(scope, one.id);
  const records = await listAll(store, scope, 500);
  const mismatches: string[] = [];
  if (records.length !== EXACTNESS_RECORDS - 300) mismatches.push(`the scope holds ${records.length} records`);
  for (let q = 0; q < 8; q++) {
    const query =
      q === 0 ? added : Array.from({ length: 1 + (q % 6) }, () => VOCABULARY[Math.floor(random() * 40)]).join(" ");
    const hits = await store.search({ scope, query, k: 10 });
    const expected = referenceSearch(records, query, 10);
    const same =
      hits.length === expected.length &&
      hits.every(
        (hit, i) => hit.record.id === expected[i]!.record.id && Math.abs(hit.score - expected[i]!.score) < 1e-9,
      );
    const show = (list: typeof hits) => list.map((hit) => `${hit.record.id}:${hit.score.toFixed(9)}`).join(" ");
    if (!same) mismatches.push(`"${query}": got ${show(hits)}; expected ${show(expected)}`);
  }
  return mismatches;
}

export function exactnessSuite(h: ConformanceHarness): void {
  describe("exactness", () => {
    // Per-scope statistics kept on write and a ranking that prunes must still give what scoring
    // every record from scratch gives, at a size where cutting each term's postings would not.
    it(
      `search equals core's from-scratch ranking on a ${EXACTNESS_RECORDS}-record scope after updates and deletes`,
      () =>
        withStore(h, async (store) => {
          expect(await exactSearchMismatches(store, uniqueScope("exact"))).toEqual([]);
        }),
      120_000,
    );
  });
}
