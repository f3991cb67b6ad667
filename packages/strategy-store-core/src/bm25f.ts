import { LIMITS } from "./limits";
import { tokenize } from "./tokenize";

/**
 * Scope-local BM25F, the one lexical score every backend computes. Its statistics (documents,
 * summed field lengths, per-term document frequency) belong to one scope and are kept up to date
 * by the store in the transaction that writes the record, so a search reads a handful of counters
 * instead of scanning the scope, and another scope's contents never move a score.
 *
 *   tfw(term, doc)   = Σ_field weight · tf / (1 − b + b · length / averageLength)
 *   score(term, doc) = idf(term) · tfw · (k1 + 1) / (tfw + k1)
 *   idf(term)        = ln((N − df + 0.5) / (df + 0.5) + 1)
 */
export const BM25F = {
  k1: 1.2,
  b: 0.75,
  /** A word in the problem counts twice: the problem is what a later task's description resembles. */
  weights: [2, 1, 1],
  /**
   * Field lengths (in tokens) a typical record has. A posting's impact is its score against these
   * fixed averages, so it never changes after the write and an index can keep postings in impact order.
   */
  referenceLengths: [12, 16, 3],
} as const;

/** Indexed fields, in the order every per-field triple below uses. */
export const LEXICAL_FIELDS = ["problem", "strategy", "tags"] as const;

/** One number per field of {@link LEXICAL_FIELDS}. */
export type FieldTriple = readonly [number, number, number];

export interface TermPosting {
  term: string;
  /** Occurrences of the term in each field. */
  counts: FieldTriple;
  /** Score against the reference lengths with idf 1: the order postings are kept and cut in. */
  impact: number;
}

/** What indexing one record contributes: its field lengths and one posting per distinct term. */
export interface DocumentTerms {
  lengths: FieldTriple;
  /** Sorted by term, so writers touching the same terms lock them in the same order. */
  postings: TermPosting[];
}

/** The per-scope totals a store keeps: documents and summed field lengths. */
export interface ScopeTotals {
  documents: number;
  lengths: FieldTriple;
}

export interface LexicalFields {
  problem: string;
  strategy: string;
  tags: readonly string[];
}

export function documentTerms(doc: LexicalFields): DocumentTerms {
  const fields = [tokenize(doc.problem), tokenize(doc.strategy), tokenize(doc.tags.join(" "))];
  const counts = new Map<string, [number, number, number]>();
  fields.forEach((tokens, field) => {
    for (const token of tokens) {
      let triple = counts.get(token);
      if (!triple) counts.set(token, (triple = [0, 0, 0]));
      triple[field]!++;
    }
  });
  const lengths: FieldTriple = [fields[0]!.length, fields[1]!.length, fields[2]!.length];
  const reference = lengthNorms({ documents: 1, lengths: BM25F.referenceLengths });
  const postings = [...counts.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([term, triple]) => ({
      term,
      counts: triple,
      impact: saturate(weightedFrequency(triple, lengths, reference)),
    }));
  return { lengths, postings };
}

/** Distinct stemmed query terms, capped at `LIMITS.queryWords`. */
export function queryTerms(query: string): string[] {
  return [...new Set(tokenize(query))].slice(0, LIMITS.queryWords);
}

export function idf(documents: number, df: number): number {
  return Math.log((documents - df + 0.5) / (df + 0.5) + 1);
}

/**
 * `b / averageLength` per field (0 for a field no document of the scope has): what a length is
 * multiplied by in the normalisation, computed once per search.
 */
export function lengthNorms(totals: ScopeTotals): FieldTriple {
  const norm = (sum: number) => (totals.documents > 0 && sum > 0 ? (BM25F.b * totals.documents) / sum : 0);
  return [norm(totals.lengths[0]), norm(totals.lengths[1]), norm(totals.lengths[2])];
}

export function weightedFrequency(counts: FieldTriple, lengths: FieldTriple, norms: FieldTriple): number {
  const base = 1 - BM25F.b;
  return (
    (BM25F.weights[0] * counts[0]) / (base + norms[0] * lengths[0]) +
    (BM25F.weights[1] * counts[1]) / (base + norms[1] * lengths[1]) +
    (BM25F.weights[2] * counts[2]) / (base + norms[2] * lengths[2])
  );
}

export function saturate(tfw: number): number {
  return (tfw * (BM25F.k1 + 1)) / (tfw + BM25F.k1);
}
