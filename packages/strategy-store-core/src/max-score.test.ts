import { describe, expect, it } from "vitest";
import { prng } from "./bench/synthetic";
import { idf, lengthNorms, saturate, weightedFrequency } from "./bm25f";
import type { FieldTriple, ScopeTotals } from "./bm25f";
import { BM25F } from "./bm25f";
import { maxScoreTop } from "./max-score";
import type { TermPostings } from "./max-score";

interface Posting {
  seq: number;
  counts: FieldTriple;
  lengths: FieldTriple;
}

function list(postings: Posting[], looked: number[][]): TermPostings {
  const reference = lengthNorms({ documents: 1, lengths: BM25F.referenceLengths });
  return {
    documents: postings.length,
    bestImpact: Math.max(0, ...postings.map((p) => saturate(weightedFrequency(p.counts, p.lengths, reference)))),
    // One run per posting, so runs of any size are covered (a backend's hold many).
    scan: () => postings.map(run),
    lookup: (seqs) => {
      const wanted = [...Array.from(seqs)];
      looked.push(wanted);
      return postings.filter((p) => wanted.includes(p.seq)).map(run);
    },
  };
}

const run = (p: Posting) => ({ seqs: [p.seq], fields: [...p.counts, ...p.lengths] });

// Scores every posting of every term: what maxScoreTop must equal.
function bruteForce(terms: Posting[][], totals: ScopeTotals, pool: number) {
  const norms = lengthNorms(totals);
  const scores = new Map<number, number>();
  for (const postings of terms) {
    const weight = idf(totals.documents, postings.length);
    for (const p of postings) {
      scores.set(p.seq, (scores.get(p.seq) ?? 0) + weight * saturate(weightedFrequency(p.counts, p.lengths, norms)));
    }
  }
  return [...scores.entries()]
    .sort(([a, x], [b, y]) => y - x || a - b)
    .slice(0, pool)
    .map(([seq]) => seq);
}

describe("maxScoreTop", () => {
  it("equals scoring every posting, over rare, common and everywhere terms, uneven lengths and ties", () => {
    const random = prng(3);
    let lookedUp = 0;
    for (let round = 0; round < 60; round++) {
      const documents = 200 + Math.floor(random() * 800);
      const docs = Array.from({ length: documents }, () => {
        // Some documents share their lengths exactly, so equal scores happen and the seq tie-break shows.
        const lengths: FieldTriple =
          random() < 0.3
            ? [8, 10, 0]
            : [1 + Math.floor(random() * 30), Math.floor(random() * 40), Math.floor(random() * 4)];
        return lengths;
      });
      const totals: ScopeTotals = {
        documents,
        lengths: [0, 1, 2].map((f) => docs.reduce((sum, d) => sum + d[f]!, 0)) as unknown as FieldTriple,
      };
      const shares = [0.01, 0.05, 0.2, 0.5, 1].slice(0, 1 + Math.floor(random() * 5));
      const terms = shares.map((share) =>
        docs.flatMap((lengths, seq): Posting[] => {
          if (random() >= share) return [];
          const counts: FieldTriple = [
            lengths[0] > 0 ? Math.floor(random() * 3) : 0,
            lengths[1] > 0 ? Math.floor(random() * 3) : 0,
            lengths[2] > 0 && random() < 0.3 ? 1 : 0,
          ];
          return counts[0] + counts[1] + counts[2] === 0
            ? [{ seq, counts: [1, 0, 0], lengths }]
            : [{ seq, counts, lengths }];
        }),
      );
      const pool = [1, 5, 50][round % 3]!;
      const looked: number[][] = [];
      const got = maxScoreTop(
        terms.map((postings) => list(postings, looked)),
        totals,
        pool,
      );
      lookedUp += looked.length;
      expect(got.map((hit) => hit.seq)).toEqual(bruteForce(terms, totals, pool));
    }
    // Pruning happened: some terms were looked up for held documents instead of scanned.
    expect(lookedUp).toBeGreaterThan(0);
  });

  it("returns nothing for no terms, and for terms no document holds", () => {
    const totals: ScopeTotals = { documents: 10, lengths: [100, 100, 0] };
    expect(maxScoreTop([], totals, 5)).toEqual([]);
    expect(maxScoreTop([list([], [])], totals, 5)).toEqual([]);
  });
});
