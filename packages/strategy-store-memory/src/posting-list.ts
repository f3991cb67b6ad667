import type { FieldTriple, PostingRun } from "@x/strategy-store-core/backend";

/**
 * One term's postings in one scope, ascending `seq`, in chunks of at most `CHUNK` so an insert or
 * removal moves a few hundred entries, not the whole list (a term every record of a 100k scope
 * holds would otherwise cost a 100k-entry shift per write). Each chunk is a run as core's
 * `maxScoreTop` reads it: the seqs, and six numbers per posting (field counts, then field lengths).
 */
export class PostingList {
  private readonly chunks: Chunk[] = [];
  private count = 0;
  /** The highest impact ever inserted: removals leave it, and an upper bound is all a search needs. */
  private best = 0;

  get size(): number {
    return this.count;
  }

  get bestImpact(): number {
    return this.best;
  }

  insert(seq: number, impact: number, counts: FieldTriple, lengths: FieldTriple): void {
    this.count++;
    this.best = Math.max(this.best, impact);
    const c = Math.max(0, this.chunkFor(seq));
    const chunk = this.chunks[c];
    if (!chunk) {
      this.chunks.push({ seqs: [seq], fields: [...counts, ...lengths] });
      return;
    }
    const at = firstAtOrAbove(chunk.seqs, seq);
    chunk.seqs.splice(at, 0, seq);
    chunk.fields.splice(at * 6, 0, ...counts, ...lengths);
    if (chunk.seqs.length > CHUNK) {
      const half = chunk.seqs.length >>> 1;
      this.chunks.splice(c + 1, 0, { seqs: chunk.seqs.splice(half), fields: chunk.fields.splice(half * 6) });
    }
  }

  /** Removes the posting of `seq`; false when there is none. */
  remove(seq: number): boolean {
    const c = this.chunkFor(seq);
    const chunk = this.chunks[c];
    if (!chunk) return false;
    const at = firstAtOrAbove(chunk.seqs, seq);
    if (chunk.seqs[at] !== seq) return false;
    chunk.seqs.splice(at, 1);
    chunk.fields.splice(at * 6, 6);
    if (chunk.seqs.length === 0) this.chunks.splice(c, 1);
    this.count--;
    return true;
  }

  /** Every posting, in runs ascending by `seq`. */
  runs(): readonly PostingRun[] {
    return this.chunks;
  }

  /** The runs holding the postings of these documents (ascending `seq`), each once, ascending. */
  covering(seqs: ArrayLike<number>): PostingRun[] {
    const found: PostingRun[] = [];
    let last = -1;
    for (let i = 0; i < seqs.length; i++) {
      const c = this.chunkFor(seqs[i]!);
      if (c < 0 || c === last) continue;
      last = c;
      found.push(this.chunks[c]!);
    }
    return found;
  }

  /** Index of the last chunk whose first `seq` is at or below `seq`; -1 when there is none. */
  private chunkFor(seq: number): number {
    let lo = 0;
    let hi = this.chunks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.chunks[mid]!.seqs[0]! <= seq) lo = mid + 1;
      else hi = mid;
    }
    return lo - 1;
  }
}

interface Chunk {
  seqs: number[];
  fields: number[];
}

const CHUNK = 512;

/** In an ascending array: the first index at or above `value`. */
function firstAtOrAbove(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
