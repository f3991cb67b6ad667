import { documentTerms, idf, lengthNorms, queryTerms, saturate, weightedFrequency } from "../bm25f";
import type { LexicalCandidate } from "../ranking";
import { candidatePoolSize, rankCandidates } from "../ranking";
import type { StrategyHit, StrategyRecord } from "../record";

/**
 * Scope-local BM25F computed from scratch over every record of a scope, then ranked by core:
 * what any backend's `search` must return, however it keeps its statistics and postings.
 */
export function referenceSearch(records: readonly StrategyRecord[], query: string, k: number): StrategyHit[] {
  const analysed = records.map((record) => ({ record, terms: documentTerms(record) }));
  const lengths: [number, number, number] = [0, 0, 0];
  for (const { terms } of analysed) for (let f = 0; f < 3; f++) lengths[f]! += terms.lengths[f]!;
  const norms = lengthNorms({ documents: records.length, lengths });
  const wanted = queryTerms(query);
  const df = new Map(
    wanted.map((term) => [term, analysed.filter((doc) => doc.terms.postings.some((p) => p.term === term)).length]),
  );
  const lexical: LexicalCandidate[] = [];
  for (const { record, terms } of analysed) {
    let score = 0;
    for (const posting of terms.postings) {
      if (!df.has(posting.term)) continue;
      score +=
        idf(records.length, df.get(posting.term)!) * saturate(weightedFrequency(posting.counts, terms.lengths, norms));
    }
    if (score > 0) lexical.push({ record, score, terms: new Set(terms.postings.map((p) => p.term)) });
  }
  lexical.sort((a, b) => b.score - a.score);
  return rankCandidates(query, lexical.slice(0, candidatePoolSize(k)), undefined, { k });
}
