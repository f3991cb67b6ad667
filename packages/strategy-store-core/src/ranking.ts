import type { StrategyRecord } from "./record";
import type { LexicalFields } from "./bm25f";
import type { TermSet } from "./indexed-form";
import { tokenize } from "./tokenize";

/** Reciprocal-rank-fusion constant from Cormack et al.; dampens the head of each list. */
export const RRF_K = 60;

/** How many candidates a backend should hand to `rankCandidates` for a final top `k`. */
export function candidatePoolSize(k: number): number {
  return Math.max(50, k * 5);
}

/**
 * What the final ranking reads of a record. A backend may rank a light form carrying only these
 * (and its row) and read the full record for the `k` winners alone.
 */
export type RankedFields = Pick<StrategyRecord, "id" | "updatedAt" | "confidence" | "uses" | "successes">;

export interface LexicalCandidate<R extends RankedFields = StrategyRecord> {
  record: R;
  /** The backend's own relevance (BM25, ts_rank, ...): higher is better, any scale. */
  score: number;
  /** The record's index terms ({@link recordTerms}): what query coverage is counted over. */
  terms: TermSet;
}

export interface VectorCandidate<R extends RankedFields = StrategyRecord> {
  record: R;
  /** Cosine similarity to the query embedding. */
  similarity: number;
  /** As {@link LexicalCandidate.terms}. */
  terms: TermSet;
}

/** A ranked candidate: the record (or its light form) and its final score. */
export interface RankedHit<R extends RankedFields = StrategyRecord> {
  record: R;
  score: number;
}

export interface RankOptions {
  k: number;
  minScore?: number;
}

/**
 * The final ranking every backend shares, so scores mean the same thing whatever the storage:
 *
 *   relevance = ½ · order + ½ · match
 *     order: the backend's lexical score over the best one — or, in hybrid mode, the
 *            reciprocal-rank fusion of the lexical and vector lists over the best fused value;
 *     match: the share of the query's content words the record contains (or the cosine
 *            similarity when higher), an absolute signal so a lone weak hit does not score 1.
 *   score = relevance · outcome · confidence
 *     outcome: 0.8 + 0.4 · (successes + 1) / (uses + 2) — Laplace-smoothed success rate, 1.0 with
 *              no history, so near-ties go to what worked without burying a far better match;
 *     confidence: 0.94 + 0.02 · confidence.
 */
export function rankCandidates<R extends RankedFields>(
  query: string,
  lexical: ReadonlyArray<LexicalCandidate<R>>,
  vector: ReadonlyArray<VectorCandidate<R>> | undefined,
  options: RankOptions,
): Array<RankedHit<R>> {
  const entries = new Map<
    string,
    { record: R; terms: TermSet; lexical?: number; lexRank?: number; vecRank?: number; similarity?: number }
  >();
  lexical.forEach((candidate, rank) => {
    entries.set(candidate.record.id, {
      record: candidate.record,
      terms: candidate.terms,
      lexical: candidate.score,
      lexRank: rank,
    });
  });
  vector?.forEach((candidate, rank) => {
    const entry = entries.get(candidate.record.id) ?? { record: candidate.record, terms: candidate.terms };
    entry.vecRank = rank;
    entry.similarity = candidate.similarity;
    entries.set(candidate.record.id, entry);
  });

  const fused = vector !== undefined && vector.length > 0;
  const orderOf = (entry: { lexical?: number; lexRank?: number; vecRank?: number }): number =>
    fused
      ? (entry.lexRank === undefined ? 0 : 1 / (RRF_K + entry.lexRank + 1)) +
        (entry.vecRank === undefined ? 0 : 1 / (RRF_K + entry.vecRank + 1))
      : Math.max(0, entry.lexical ?? 0);
  const best = Math.max(0, ...[...entries.values()].map(orderOf));

  const queryTokens = new Set(tokenize(query));
  const hits: Array<RankedHit<R>> = [];
  for (const entry of entries.values()) {
    const order = best > 0 ? orderOf(entry) / best : 0;
    const match = Math.max(coverage(queryTokens, entry.terms), Math.max(0, entry.similarity ?? 0));
    const relevance = 0.5 * order + 0.5 * match;
    const score = relevance * outcomeFactor(entry.record) * (0.94 + 0.02 * entry.record.confidence);
    if (score > 0 && score >= (options.minScore ?? 0)) hits.push({ record: entry.record, score });
  }
  hits.sort(
    (a, b) =>
      b.score - a.score ||
      b.record.updatedAt.localeCompare(a.record.updatedAt) ||
      (a.record.id < b.record.id ? -1 : a.record.id > b.record.id ? 1 : 0),
  );
  return hits.slice(0, options.k);
}

export function outcomeFactor(record: Pick<StrategyRecord, "uses" | "successes">): number {
  return 0.8 + (0.4 * (record.successes + 1)) / (record.uses + 2);
}

function coverage(queryTokens: ReadonlySet<string>, recordTokens: TermSet): number {
  if (queryTokens.size === 0) return 0;
  let found = 0;
  for (const token of queryTokens) if (recordTokens.has(token)) found++;
  return found / queryTokens.size;
}

/**
 * The distinct tokens of a record's indexed fields, each field tokenised on its own (the terms
 * {@link documentTerms} gives postings for), for a backend that holds the text rather than its terms.
 */
export function recordTerms(record: LexicalFields): Set<string> {
  return new Set([...tokenize(record.problem), ...tokenize(record.strategy), ...tokenize(record.tags.join(" "))]);
}

export function cosineSimilarity(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length) return 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
