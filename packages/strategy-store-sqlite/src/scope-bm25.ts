import { tokenize } from "@x/strategy-store-core";

/**
 * BM25 with every statistic taken from one scope. FTS5's own bm25() reads document counts and
 * average lengths over the whole table, so one tenant's scores would move with what other
 * tenants store; here FTS5 only finds the scope's matching rows and the scoring happens below.
 */
const K1 = 1.2;
const B = 0.75;

export const FIELDS = ["problem", "strategy", "tags"] as const;
export type Field = (typeof FIELDS)[number];
const WEIGHTS: Record<Field, number> = { problem: 2, strategy: 1, tags: 1 };

/** Scope-wide figures: row count and average character length of each field. */
export interface ScopeStats {
  n: number;
  avg: Record<Field, number>;
}

/** FTS5 folds diacritics (remove_diacritics 2); fold them here too so both sides agree on terms. */
export function scoringTerms(text: string): string[] {
  return tokenize(text.normalize("NFD").replace(/\p{M}/gu, ""));
}

export function scopeBm25<D extends Record<Field, string>>(
  queryTerms: readonly string[],
  docs: readonly D[],
  stats: ScopeStats,
): Array<{ doc: D; score: number }> {
  const terms = [...new Set(queryTerms)];
  const counted = docs.map((doc) => ({
    doc,
    fields: FIELDS.map((field) => ({ field, length: doc[field].length, tf: termCounts(doc[field], terms) })),
  }));
  // `docs` are all of the scope's rows matching any query term, so document frequency is exact.
  const idf = new Map(
    terms.map((term) => {
      const df = counted.filter((c) => c.fields.some((f) => (f.tf.get(term) ?? 0) > 0)).length;
      return [term, Math.log((stats.n - df + 0.5) / (df + 0.5) + 1)];
    }),
  );
  return counted.map(({ doc, fields }) => {
    let score = 0;
    for (const term of terms) {
      let weighted = 0;
      for (const { field, length, tf } of fields) {
        const count = tf.get(term) ?? 0;
        if (count === 0) continue;
        const norm = 1 - B + (B * length) / Math.max(1, stats.avg[field]);
        weighted += (WEIGHTS[field] * count * (K1 + 1)) / (count + K1 * norm);
      }
      score += idf.get(term)! * weighted;
    }
    return { doc, score };
  });
}

function termCounts(text: string, terms: readonly string[]): Map<string, number> {
  const wanted = new Set(terms);
  const counts = new Map<string, number>();
  for (const token of scoringTerms(text)) if (wanted.has(token)) counts.set(token, (counts.get(token) ?? 0) + 1);
  return counts;
}
