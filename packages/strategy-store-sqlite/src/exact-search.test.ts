import { describe, expect, it } from "vitest";
import { prng } from "@x/strategy-store-core/bench";
import type { StrategyInput } from "@x/strategy-store-core";
import { listAll, referenceSearch } from "@x/strategy-store-core/conformance";
import { SqliteStrategyStore } from "./index";

// 40 words over 2,000 records: every query term is in ~650 of them, so postings span dozens of
// blocks and a search that read only each term's best postings would miss documents matching several.
const VOCABULARY = Array.from({ length: 40 }, (_, i) => `w${i.toString(36)}x${(i * 7).toString(36)}`);

function record(n: number, random: () => number): StrategyInput {
  const phrase = (length: number) =>
    Array.from({ length }, () => VOCABULARY[Math.floor(random() * VOCABULARY.length)]).join(" ");
  return {
    scope: "big",
    problem: `${phrase(2 + Math.floor(random() * 8))} item${n}`,
    strategy: `${phrase(3 + Math.floor(random() * 14))} step${n}`,
    confidence: n % 4,
    source: "exact",
    ...(n % 5 === 0 ? { tags: [VOCABULARY[n % VOCABULARY.length]!] } : {}),
  };
}

describe("sqlite exact search", () => {
  it("equals the scope-local BM25F reference when every query term is in a third of a 2,000-record scope", async () => {
    const random = prng(42);
    const store = new SqliteStrategyStore({ database: ":memory:" });
    const inputs = Array.from({ length: 2000 }, (_, n) => record(n, random));
    const written = await store.putMany(inputs);
    // Updates add a word to old records: postings land inside full blocks, which split; deletes empty some.
    const added = VOCABULARY[7]!;
    await store.putMany(inputs.slice(0, 200).map((input) => ({ ...input, problem: `${input.problem} ${added}` })));
    for (const one of written.slice(1000, 1300)) expect(await store.delete("big", one.id)).toBe(true);
    const records = await listAll(store, "big", 500);
    expect(records).toHaveLength(1700);
    for (let q = 0; q < 8; q++) {
      const query =
        q === 0 ? added : Array.from({ length: 1 + (q % 6) }, () => VOCABULARY[Math.floor(random() * 40)]).join(" ");
      const hits = await store.search({ scope: "big", query, k: 10 });
      const expected = referenceSearch(records, query, 10);
      expect(hits.map((hit) => hit.record.id)).toEqual(expected.map((hit) => hit.record.id));
      hits.forEach((hit, i) => expect(hit.score).toBeCloseTo(expected[i]!.score, 9));
    }
    await store.close();
  }, 60_000);
});
