/**
 * One term's postings kept in impact order (best first; equal impacts oldest first), in chunks of
 * at most `CHUNK` so an insert or removal moves a few hundred entries, not the whole list: a
 * term every record of a 100k scope contains would otherwise cost a 100k-entry shift per write.
 */
export class PostingList<D> {
  private readonly chunks: Array<Chunk<D>> = [];
  private count = 0;

  get size(): number {
    return this.count;
  }

  insert(impact: number, doc: D, packed: number): void {
    this.count++;
    // The first chunk whose last impact is below the new one; the new posting goes after every
    // posting with a higher or equal impact.
    const c = this.chunkFor(impact, false);
    const chunk = this.chunks[c];
    if (!chunk) {
      this.chunks.push({ impacts: [impact], docs: [doc], counts: [packed] });
      return;
    }
    const at = firstIndex(chunk.impacts, impact, false);
    chunk.impacts.splice(at, 0, impact);
    chunk.docs.splice(at, 0, doc);
    chunk.counts.splice(at, 0, packed);
    if (chunk.impacts.length > CHUNK) {
      const half = chunk.impacts.length >>> 1;
      this.chunks.splice(c + 1, 0, {
        impacts: chunk.impacts.splice(half),
        docs: chunk.docs.splice(half),
        counts: chunk.counts.splice(half),
      });
    }
  }

  /** Removes `doc`'s posting, found by its impact; false when it is not there. */
  remove(impact: number, doc: D): boolean {
    for (let c = this.chunkFor(impact, true); c < this.chunks.length; c++) {
      const chunk = this.chunks[c]!;
      for (let at = firstIndex(chunk.impacts, impact, true); at < chunk.impacts.length; at++) {
        if (chunk.impacts[at]! < impact) return false;
        if (chunk.docs[at] !== doc) continue;
        chunk.impacts.splice(at, 1);
        chunk.docs.splice(at, 1);
        chunk.counts.splice(at, 1);
        if (chunk.impacts.length === 0) this.chunks.splice(c, 1);
        this.count--;
        return true;
      }
    }
    return false;
  }

  /** Calls `visit` for the first `limit` postings, best impact first. */
  forEachBest(limit: number, visit: (doc: D, packed: number) => void): void {
    let left = limit;
    for (const chunk of this.chunks) {
      const take = Math.min(left, chunk.docs.length);
      for (let i = 0; i < take; i++) visit(chunk.docs[i]!, chunk.counts[i]!);
      left -= take;
      if (left === 0) return;
    }
  }

  /** Index of the first chunk whose last impact is below `impact` (or, `inclusive`, at or below it). */
  private chunkFor(impact: number, inclusive: boolean): number {
    let lo = 0;
    let hi = this.chunks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const last = this.chunks[mid]!.impacts.at(-1)!;
      if (inclusive ? last > impact : last >= impact) lo = mid + 1;
      else hi = mid;
    }
    return lo === this.chunks.length && !inclusive ? Math.max(0, lo - 1) : lo;
  }
}

interface Chunk<D> {
  impacts: number[];
  docs: D[];
  /** Field counts packed into one number by the caller. */
  counts: number[];
}

const CHUNK = 512;

/** In a descending array: the first index below `value` (or, `inclusive`, at or below it). */
function firstIndex(sorted: readonly number[], value: number, inclusive: boolean): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (inclusive ? sorted[mid]! > value : sorted[mid]! >= value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
