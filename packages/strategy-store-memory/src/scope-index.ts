import {
  documentTerms,
  idf,
  lengthNorms,
  postingsPerTerm,
  saturate,
  weightedFrequency,
} from "@x/strategy-store-core/backend";
import type { FieldTriple, LexicalFields } from "@x/strategy-store-core/backend";
import { PostingList } from "./posting-list";

interface IndexedDoc {
  id: string;
  /** Insertion order: the tie-break among equal scores, as the SQL backends' row sequence is. */
  seq: number;
  lengths: FieldTriple;
  /** Its distinct terms, which ranking counts query coverage over. */
  terms: ReadonlySet<string>;
}

// Field counts are bounded by LIMITS (4,000 characters of text, 32 tags of 64), far below 2^16.
const SHIFT = 65_536;
const pack = (counts: FieldTriple): number => counts[0] + counts[1] * SHIFT + counts[2] * SHIFT * SHIFT;
const unpack = (packed: number): FieldTriple => [
  packed % SHIFT,
  Math.floor(packed / SHIFT) % SHIFT,
  Math.floor(packed / (SHIFT * SHIFT)),
];

/**
 * One scope's inverted index with its BM25F statistics, updated on every write: a search reads
 * at most `postingsPerTerm` postings per query term, never the whole scope.
 */
export class ScopeIndex {
  private readonly terms = new Map<string, PostingList<IndexedDoc>>();
  private readonly docs = new Map<string, IndexedDoc>();
  private readonly totals: [number, number, number] = [0, 0, 0];
  private nextSeq = 0;

  /** Indexes a record; an updated record passes the `seq` that `remove` returned, keeping its place among ties. */
  add(id: string, fields: LexicalFields, seq = this.nextSeq++): void {
    const analysed = documentTerms(fields);
    const terms = new Set(analysed.postings.map((posting) => posting.term));
    const doc: IndexedDoc = { id, seq, lengths: analysed.lengths, terms };
    this.docs.set(id, doc);
    for (let f = 0; f < 3; f++) this.totals[f]! += analysed.lengths[f]!;
    for (const posting of analysed.postings) {
      let list = this.terms.get(posting.term);
      if (!list) this.terms.set(posting.term, (list = new PostingList()));
      list.insert(posting.impact, doc, pack(posting.counts));
    }
  }

  /** Removes what `add` indexed for `id` (`fields` must be the text it was added with); returns its `seq`. */
  remove(id: string, fields: LexicalFields): number | undefined {
    const doc = this.docs.get(id);
    if (!doc) return undefined;
    this.docs.delete(id);
    for (let f = 0; f < 3; f++) this.totals[f]! -= doc.lengths[f]!;
    for (const posting of documentTerms(fields).postings) {
      const list = this.terms.get(posting.term);
      if (!list) continue;
      list.remove(posting.impact, doc);
      if (list.size === 0) this.terms.delete(posting.term);
    }
    return doc.seq;
  }

  /** The `pool` best record ids by BM25F for the query terms, with their scores and terms. */
  search(
    queryTerms: readonly string[],
    pool: number,
  ): Array<{ id: string; score: number; terms: ReadonlySet<string> }> {
    const documents = this.docs.size;
    const norms = lengthNorms({ documents, lengths: this.totals });
    const limit = postingsPerTerm(queryTerms.length, pool);
    const scores = new Map<IndexedDoc, number>();
    for (const term of queryTerms) {
      const list = this.terms.get(term);
      if (!list) continue;
      const weight = idf(documents, list.size);
      list.forEachBest(limit, (doc, packed) => {
        const score = weight * saturate(weightedFrequency(unpack(packed), doc.lengths, norms));
        scores.set(doc, (scores.get(doc) ?? 0) + score);
      });
    }
    return [...scores.entries()]
      .sort(([a, x], [b, y]) => y - x || a.seq - b.seq)
      .slice(0, pool)
      .map(([doc, score]) => ({ id: doc.id, score, terms: doc.terms }));
  }
}
