import { describe, expect, it } from "vitest";
import {
  candidatePoolSize,
  documentTerms,
  idf,
  lengthNorms,
  queryTerms,
  rankCandidates,
  saturate,
  weightedFrequency,
} from "@x/strategy-store-core/backend";
import type { LexicalCandidate } from "@x/strategy-store-core/backend";
import type { SearchQuery, StrategyHit, StrategyRecord, StrategyStore } from "@x/strategy-store-core";
import { exactSearchMismatches, listAll } from "@x/strategy-store-core/conformance";
import { MemoryStrategyStore } from "./index";

/**
 * The ranking every backend had before MaxScore: each query term contributes only its best
 * `max(pool, 2048 / terms)` postings by impact, which is exact only while no term is in more documents.
 */
// Tokenising every record for every search is most of this test's time: each text is analysed once.
const analyses = new Map<string, ReturnType<typeof documentTerms>>();
function analyse(record: StrategyRecord) {
  const key = `${record.problem}\u0000${record.strategy}\u0000${record.tags.join(" ")}`;
  let terms = analyses.get(key);
  if (!terms) analyses.set(key, (terms = documentTerms(record)));
  return terms;
}

function perTermCut(records: readonly StrategyRecord[], query: string, k: number): StrategyHit[] {
  const analysed = records.map((record) => ({ record, terms: analyse(record) }));
  const lengths: [number, number, number] = [0, 0, 0];
  for (const { terms } of analysed) for (let f = 0; f < 3; f++) lengths[f]! += terms.lengths[f]!;
  const norms = lengthNorms({ documents: records.length, lengths });
  const wanted = queryTerms(query);
  const pool = candidatePoolSize(k);
  const cut = Math.max(pool, Math.floor(2048 / Math.max(1, wanted.length)));
  const scores = new Map<StrategyRecord, number>();
  for (const term of wanted) {
    const postings = analysed.flatMap(({ record, terms }) =>
      terms.postings.filter((p) => p.term === term).map((posting) => ({ record, lengths: terms.lengths, posting })),
    );
    const weight = idf(records.length, postings.length);
    for (const { record, lengths: own, posting } of postings
      .sort((a, b) => b.posting.impact - a.posting.impact)
      .slice(0, cut)) {
      scores.set(record, (scores.get(record) ?? 0) + weight * saturate(weightedFrequency(posting.counts, own, norms)));
    }
  }
  const lexical: LexicalCandidate[] = [...scores.entries()]
    .sort(([, a], [, b]) => b - a)
    .slice(0, pool)
    .map(([record, score]) => ({ record, score, terms: new Set(analyse(record).postings.map((p) => p.term)) }));
  return rankCandidates(query, lexical, undefined, { k });
}

describe("the conformance exactness check", () => {
  it("fails a store that ranks with the old per-term cut, and passes the memory store", async () => {
    const exact = new MemoryStrategyStore();
    const cut: StrategyStore = Object.assign(Object.create(exact) as StrategyStore, {
      search: async (query: SearchQuery) =>
        perTermCut(await listAll(exact, query.scope, 500), query.query, query.k ?? 3),
    });
    const mismatches = await exactSearchMismatches(cut, "cut");
    expect(mismatches.length).toBeGreaterThan(0);
    expect(await exactSearchMismatches(new MemoryStrategyStore(), "cut")).toEqual([]);
  }, 180_000);
});
