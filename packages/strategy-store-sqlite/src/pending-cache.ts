import { decodePending } from "./pending-postings";

/** One pending posting: its impact and six fields (counts, then lengths). */
export interface PendingPosting {
  impact: number;
  fields: readonly number[];
}

/** A scope's pending postings: per term, per `seq`. */
export type PendingByTerm = Map<string, Map<number, PendingPosting>>;

/** A pending row as read from strategy_pending. */
export interface PendingRow {
  seq: number;
  terms: string;
  postings: Buffer;
}

/**
 * The pending postings of the scopes this connection last searched or wrote, in memory, each
 * under the `pending_tag` its scope row had when they were read: a search would otherwise read
 * every pending row of its scope (hundreds) to find those holding its terms. Every change to a
 * scope's pending rows sets a new random tag in the same transaction, so an entry is used only
 * while the database still holds what it was read from: another connection's write, or a rolled
 * back one of ours, leaves the tags apart and the rows are read again.
 */
export class PendingCache {
  private readonly scopes = new Map<number, { tag: number; byTerm: PendingByTerm }>();

  /** `limit` scopes at most, the least recently used dropped first. */
  constructor(private readonly limit = 8) {}

  /** The scope's postings, if held at `tag`. */
  get(scopeId: number, tag: number): PendingByTerm | undefined {
    const entry = this.scopes.get(scopeId);
    if (!entry || entry.tag !== tag) return undefined;
    this.scopes.delete(scopeId);
    this.scopes.set(scopeId, entry);
    return entry.byTerm;
  }

  /** Holds the scope's postings read from its pending rows at `tag`. */
  fill(scopeId: number, tag: number, rows: readonly PendingRow[]): PendingByTerm {
    const byTerm: PendingByTerm = new Map();
    for (const row of rows) {
      const decoded = decodePending(row.terms, row.postings);
      decoded.terms.forEach((term, i) => {
        const fields = Array.from(decoded.fields.subarray(i * 6, i * 6 + 6));
        postingsOf(byTerm, term).set(row.seq, { impact: decoded.impacts[i]!, fields });
      });
    }
    this.hold(scopeId, tag, byTerm);
    return byTerm;
  }

  /**
   * A write moved the scope's tag from `before` to `after`: an entry held at `before` takes the
   * change and moves to `after`; any other entry of the scope is dropped.
   */
  update(scopeId: number, before: number, after: number, change: (byTerm: PendingByTerm) => void): void {
    const entry = this.scopes.get(scopeId);
    if (!entry) return;
    if (entry.tag !== before) {
      this.scopes.delete(scopeId);
      return;
    }
    change(entry.byTerm);
    entry.tag = after;
  }

  private hold(scopeId: number, tag: number, byTerm: PendingByTerm): void {
    this.scopes.delete(scopeId);
    this.scopes.set(scopeId, { tag, byTerm });
    for (const oldest of this.scopes.keys()) {
      if (this.scopes.size <= this.limit) break;
      this.scopes.delete(oldest);
    }
  }
}

/** The term's postings in `byTerm`, created empty when it has none. */
export function postingsOf(byTerm: PendingByTerm, term: string): Map<number, PendingPosting> {
  let postings = byTerm.get(term);
  if (!postings) byTerm.set(term, (postings = new Map()));
  return postings;
}

/**
 * A new tag for a scope's pending rows: random, so a tag a rolled-back write left in this
 * connection's cache is not given again to different rows (2⁵² values).
 */
export function freshTag(): number {
  return Math.floor(Math.random() * 2 ** 52);
}
