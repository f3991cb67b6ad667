import { describe, expect, it } from "vitest";
import { prng } from "@x/strategy-store-core/bench";
import type { StrategyInput } from "@x/strategy-store-core";
import { listAll, referenceSearch } from "@x/strategy-store-core/conformance";
import { SqliteStrategyStore } from "./index";
import { PENDING_LIMIT } from "./pending-postings";

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

  it("equals the reference while postings are pending, rewritten and deleted on either side of a merge", async () => {
    const random = prng(7);
    const store = new SqliteStrategyStore({ database: ":memory:" });
    const merged = PENDING_LIMIT;
    const inputs = Array.from({ length: merged + 88 }, (_, n) => record(n, random));
    // Single puts: the first PENDING_LIMIT merged into blocks, the last 88 pending.
    const written = [];
    for (const input of inputs) written.push(await store.put(input));
    const added = VOCABULARY[3]!;
    // Rewrites of merged records go pending below the blocks' seqs; rewrites of pending ones stay pending.
    for (const n of [...Array(40).keys()].map((i) => i * 7).concat([10, 20, 30, 40, 50].map((i) => merged + i))) {
      await store.put({ ...inputs[n]!, problem: `${inputs[n]!.problem} ${added}` });
    }
    for (const one of [...written.slice(100, 130), ...written.slice(merged + 28, merged + 48)]) {
      expect(await store.delete("big", one.id)).toBe(true);
    }
    const check = async () => {
      const records = await listAll(store, "big", 500);
      for (let q = 0; q < 8; q++) {
        const query =
          q === 0 ? added : Array.from({ length: 1 + (q % 5) }, () => VOCABULARY[Math.floor(random() * 40)]).join(" ");
        const hits = await store.search({ scope: "big", query, k: 10 });
        const expected = referenceSearch(records, query, 10);
        expect(hits.map((hit) => hit.record.id)).toEqual(expected.map((hit) => hit.record.id));
        hits.forEach((hit, i) => expect(hit.score).toBeCloseTo(expected[i]!.score, 9));
      }
      return records.length;
    };
    expect(await check()).toBe(merged + 38);
    // Enough new records to merge again, rewritten ones among them landing inside full blocks.
    for (let n = merged + 88; n < 2 * merged; n++) await store.put(record(n, random));
    expect(await check()).toBe(2 * merged - 50);
    await store.close();
  }, 60_000);
});
