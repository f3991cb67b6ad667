import type { StrategyHit, StrategyRecord } from "./record";
import { tokenize } from "./tokenize";

/** Reciprocal-rank-fusion constant from Cormack et al.; dampens the head of each list. */
export const RRF_K = 60;

/** How many candidates a backend should hand to `rankCandidates` for a final top `k`. */
export function candidatePoolSize(k: number): number {
  return Math.max(50, k * 5);
}

export interface LexicalCandidate {
  record: StrategyRecord;
  /** The backend's own relevance (BM25, ts_rank, ...): higher is better, any scale. */
  score: number;
}

export interface VectorCandidate {
  record: StrategyRecord;
  /** Cosine similarity to the query embedding. */
  similarity: number;
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
export function rankCandidates(
  query: string,
  lexical: readonly LexicalCandidate[],
  vector: readonly VectorCandidate[] | undefined,
  options: RankOptions,
): StrategyHit[] {
  const entries = new Map<
    string,
    { record: StrategyRecord; lexical?: number; lexRank?: number; vecRank?: number; similarity?: number }
  >();
  lexical.forEach((candidate, rank) => {
    entries.set(candidate.record.id, { record: candidate.record, lexical: candidate.score, lexRank: rank });
  });
  vector?.forEach((candidate, rank) => {
    const entry = entries.get(candidate.record.id) ?? { record: candidate.record };
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
  const hits: StrategyHit[] = [];
  for (const entry of entries.values()) {
    const order = best > 0 ? orderOf(entry) / best : 0;
    const match = Math.max(coverage(queryTokens, entry.record), Math.max(0, entry.similarity ?? 0));
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

function coverage(queryTokens: ReadonlySet<string>, record: StrategyRecord): number {
  if (queryTokens.size === 0) return 0;
  const recordTokens = new Set(tokenize(`${record.problem} ${record.strategy} ${record.tags.join(" ")}`));
  let found = 0;
  for (const token of queryTokens) if (recordTokens.has(token)) found++;
  return found / queryTokens.size;
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
