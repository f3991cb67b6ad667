import { documentTerms, maxScoreTop } from "@x/strategy-store-core/backend";
import type { FieldTriple, LexicalFields, TermPostings } from "@x/strategy-store-core/backend";
import { PostingList } from "./posting-list";

interface IndexedDoc {
  id: string;
  /** Insertion order: the tie-break among equal scores, as the SQL backends' row sequence is. */
  seq: number;
  lengths: FieldTriple;
  /** Its distinct terms, which ranking counts query coverage over. */
  terms: ReadonlySet<string>;
}

/**
 * One scope's inverted index with its BM25F statistics, updated on every write. A search ranks
 * with core's exact MaxScore over the query terms' postings: it reads what can change the top,
 * never the whole scope, and cuts nothing.
 */
export class ScopeIndex {
  private readonly terms = new Map<string, PostingList>();
  private readonly docs = new Map<string, IndexedDoc>();
  private readonly bySeq = new Map<number, IndexedDoc>();
  private readonly totals: [number, number, number] = [0, 0, 0];
  private nextSeq = 0;

  /** Indexes a record; an updated record passes the `seq` that `remove` returned, keeping its place among ties. */
  add(id: string, fields: LexicalFields, seq = this.nextSeq++): void {
    const analysed = documentTerms(fields);
    const terms = new Set(analysed.postings.map((posting) => posting.term));
    const doc: IndexedDoc = { id, seq, lengths: analysed.lengths, terms };
    this.docs.set(id, doc);
    this.bySeq.set(seq, doc);
    for (let f = 0; f < 3; f++) this.totals[f]! += analysed.lengths[f]!;
    for (const posting of analysed.postings) {
      let list = this.terms.get(posting.term);
      if (!list) this.terms.set(posting.term, (list = new PostingList()));
      list.insert(seq, posting.impact, posting.counts, analysed.lengths);
    }
  }

  /** Removes what `add` indexed for `id`; returns its `seq`. */
  remove(id: string): number | undefined {
    const doc = this.docs.get(id);
    if (!doc) return undefined;
    this.docs.delete(id);
    this.bySeq.delete(doc.seq);
    for (let f = 0; f < 3; f++) this.totals[f]! -= doc.lengths[f]!;
    for (const term of doc.terms) {
      const list = this.terms.get(term);
      if (!list) continue;
      list.remove(doc.seq);
      if (list.size === 0) this.terms.delete(term);
    }
    return doc.seq;
  }

  /** The `pool` best record ids by exact scope-local BM25F for the query terms, with their scores and terms. */
  search(
    queryTerms: readonly string[],
    pool: number,
  ): Array<{ id: string; score: number; terms: ReadonlySet<string> }> {
    const postings: TermPostings[] = [];
    for (const term of queryTerms) {
      const list = this.terms.get(term);
      if (!list) continue;
      postings.push({
        documents: list.size,
        bestImpact: list.bestImpact,
        scan: () => list.runs(),
        lookup: (seqs) => list.covering(seqs),
      });
    }
    const top = maxScoreTop(postings, { documents: this.docs.size, lengths: this.totals }, pool);
    return top.map(({ seq, score }) => {
      const doc = this.bySeq.get(seq)!;
      return { id: doc.id, score, terms: doc.terms };
    });
  }
}
