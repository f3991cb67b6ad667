import { BM25F, idf, lengthNorms, saturate } from "./bm25f";
import type { FieldTriple, ScopeTotals } from "./bm25f";

/**
 * Postings of one term, ascending `seq`: a backend's block as it stores it, read without copying
 * into objects per posting.
 */
export interface PostingRun {
  seqs: ArrayLike<number>;
  /** Six numbers per posting: the problem, strategy and tags counts, then the same three lengths. */
  fields: ArrayLike<number>;
}

/** One query term's postings in one scope, as a backend keeps them. */
export interface TermPostings {
  /** Documents of the scope holding the term. */
  documents: number;
  /** The highest `impact` any of its postings was written with (an upper bound is enough). */
  bestImpact: number;
  /** Every posting, in runs ascending by `seq`. */
  scan(): Iterable<PostingRun>;
  /** Runs, ascending, holding the postings these documents (ascending `seq`) have; a run may hold others too. */
  lookup(seqs: ArrayLike<number>): Iterable<PostingRun>;
}

/** A document's exact scope-local BM25F score. */
export interface ScoredSeq {
  seq: number;
  score: number;
}

/**
 * The `pool` best documents by exact scope-local BM25F (ties: lower `seq` first), term at a time
 * with MaxScore pruning (Turtle & Flood): terms go in order of their score bound, highest first;
 * once the bounds of the terms still to come add up to less than the pool's lowest score so far,
 * no unseen document can enter, so the remaining terms only add to the documents already held —
 * looked up, not scanned — and a document that cannot reach the pool even with every remaining
 * term is dropped. Nothing is cut: the result equals scoring every posting of every term.
 * Scores accumulate in `seq`-sorted typed arrays merged with each term's runs.
 */
export function maxScoreTop(terms: readonly TermPostings[], totals: ScopeTotals, pool: number): ScoredSeq[] {
  const norms = lengthNorms(totals);
  const stretch = boundStretch(norms);
  const weighted = terms
    .filter((term) => term.documents > 0)
    .map((term) => {
      const weight = idf(totals.documents, term.documents);
      return { term, weight, bound: weight * impactBound(term.bestImpact, stretch) };
    })
    .sort((a, b) => b.bound - a.bound);
  let rest = weighted.reduce((sum, one) => sum + one.bound, 0);
  let spent = 0;
  // The last call's accumulators are reused when free: tens of KiB of typed arrays per search,
  // they were most of what a search allocated, and so most of its garbage-collection tail.
  const borrowed = scratch.free ? scratch : { free: true, held: accumulator(0), spare: accumulator(0) };
  borrowed.free = false;
  try {
    let held = borrowed.held;
    held.length = 0;
    // Merges write into the other of two accumulators, grown as needed.
    let spare = borrowed.spare;
    let entering = true;
    for (const { term, weight, bound } of weighted) {
      const scorer = postingScorer(weight, norms);
      // The pool's floor is at most the best score held, itself at most the bounds already spent.
      if (entering && held.length >= pool && rest < spent) entering = rest >= kthHighest(held, pool);
      if (entering) {
        const runs = [...term.scan()];
        const size = held.length + runs.reduce((sum, run) => sum + run.seqs.length, 0);
        if (spare.seqs.length < size) spare = accumulator(Math.max(size, 2 * spare.seqs.length));
        [held, spare] = [merge(held, runs, scorer, spare), held];
        borrowed.held = held;
        borrowed.spare = spare;
      } else {
        const floor = kthHighest(held, pool);
        held = keep(held, (score) => score + rest >= floor);
        addFound(held, term.lookup(held.seqs.subarray(0, held.length)), scorer);
      }
      rest -= bound;
      spent += bound;
    }
    return best(held, pool);
  } finally {
    borrowed.free = true;
  }
}

/** Two accumulators kept between calls, and whether a call is using them. */
interface Scratch {
  free: boolean;
  held: Accumulator;
  spare: Accumulator;
}

const scratch: Scratch = { free: true, held: accumulator(0), spare: accumulator(0) };

/** Documents and their partial scores, ascending `seq`, in the first `length` entries. */
interface Accumulator {
  seqs: Float64Array;
  scores: Float64Array;
  length: number;
}

type Scorer = (fields: ArrayLike<number>, i: number) => number;

/** One term's BM25F contribution for the posting at `i` of a run: `weightedFrequency` then `saturate`, unrolled. */
function postingScorer(weight: number, norms: FieldTriple): Scorer {
  const base = 1 - BM25F.b;
  const [w0, w1, w2] = BM25F.weights;
  const [n0, n1, n2] = norms;
  const k1 = BM25F.k1;
  return (f, i) => {
    const o = i * 6;
    const tfw =
      (w0 * f[o]!) / (base + n0 * f[o + 3]!) +
      (w1 * f[o + 1]!) / (base + n1 * f[o + 4]!) +
      (w2 * f[o + 2]!) / (base + n2 * f[o + 5]!);
    return weight * ((tfw * (k1 + 1)) / (tfw + k1));
  };
}

function accumulator(capacity: number): Accumulator {
  return { seqs: new Float64Array(capacity), scores: new Float64Array(capacity), length: 0 };
}

/**
 * Writes the held documents and the runs' postings into `out` (large enough) as one sorted list,
 * the scores of a document in both added.
 */
function merge(a: Accumulator, runs: readonly PostingRun[], score: Scorer, out: Accumulator): Accumulator {
  let i = 0;
  let n = 0;
  for (const run of runs) {
    for (let j = 0; j < run.seqs.length; j++) {
      const seq = run.seqs[j]!;
      while (i < a.length && a.seqs[i]! < seq) {
        out.seqs[n] = a.seqs[i]!;
        out.scores[n++] = a.scores[i++]!;
      }
      const before = i < a.length && a.seqs[i] === seq ? a.scores[i++]! : 0;
      out.seqs[n] = seq;
      out.scores[n++] = before + score(run.fields, j);
    }
  }
  for (; i < a.length; i++) {
    out.seqs[n] = a.seqs[i]!;
    out.scores[n++] = a.scores[i]!;
  }
  out.length = n;
  return out;
}

/** Adds the runs' postings of documents already held; others are skipped. */
function addFound(held: Accumulator, runs: Iterable<PostingRun>, score: Scorer): void {
  let i = 0;
  for (const run of runs) {
    for (let j = 0; j < run.seqs.length; j++) {
      const seq = run.seqs[j]!;
      while (i < held.length && held.seqs[i]! < seq) i++;
      if (i < held.length && held.seqs[i] === seq) held.scores[i]! += score(run.fields, j);
    }
  }
}

/** The held documents whose score passes `test`, in place. */
function keep(a: Accumulator, test: (score: number) => boolean): Accumulator {
  let n = 0;
  for (let i = 0; i < a.length; i++) {
    if (!test(a.scores[i]!)) continue;
    a.seqs[n] = a.seqs[i]!;
    a.scores[n++] = a.scores[i]!;
  }
  a.length = n;
  return a;
}

/** The `pool` highest-scoring documents held, best first, ties to the lower `seq`. */
function best(held: Accumulator, pool: number): ScoredSeq[] {
  const floor = held.length > pool ? kthHighest(held, pool) : -Infinity;
  const hits: ScoredSeq[] = [];
  for (let i = 0; i < held.length; i++) {
    if (held.scores[i]! >= floor) hits.push({ seq: held.seqs[i]!, score: held.scores[i]! });
  }
  return hits.sort((a, b) => b.score - a.score || a.seq - b.seq).slice(0, pool);
}

// Selection reorders a copy of the scores; one buffer serves every call (none is re-entered).
let selection = new Float64Array(0);

/** The `k`-th highest score held (Hoare's selection, linear on average). */
function kthHighest(held: Accumulator, k: number): number {
  if (selection.length < held.length) selection = new Float64Array(Math.max(held.length, 2 * selection.length));
  const a = selection;
  a.set(held.scores.subarray(0, held.length));
  const target = held.length - k;
  let lo = 0;
  let hi = held.length - 1;
  while (lo < hi) {
    const pivot = a[(lo + hi) >>> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) {
        const t = a[i]!;
        a[i++] = a[j]!;
        a[j--] = t;
      }
    }
    if (target <= j) hi = j;
    else if (target >= i) lo = i;
    else break;
  }
  return a[target]!;
}

/**
 * How much the scope's length averages can raise a posting's frequency over the one its impact
 * was computed with (against `BM25F.referenceLengths`): per field, the normalisation divides by
 * 1 − b + norm · length, so a lower norm than the reference's raises it by at most their ratio.
 * A field no document of the scope has (norm 0) holds no counts and so raises nothing.
 */
function boundStretch(norms: FieldTriple): number {
  const reference = lengthNorms({ documents: 1, lengths: BM25F.referenceLengths });
  let stretch = 1;
  for (let f = 0; f < 3; f++) if (norms[f]! > 0) stretch = Math.max(stretch, reference[f]! / norms[f]!);
  return stretch;
}

/** An upper bound on `saturate(frequency)` for any posting of impact at most `impact` under this scope's norms. */
function impactBound(impact: number, stretch: number): number {
  const { k1 } = BM25F;
  // saturate is x·(k1+1)/(x+k1): invert it to get back the reference frequency, then stretch it.
  const saturated = impact >= k1 + 1 ? k1 + 1 : saturate(((k1 * impact) / (k1 + 1 - impact)) * stretch);
  // A relative margin far above rounding error keeps the bound a bound after floating-point steps.
  return saturated * (1 + 1e-9);
}
