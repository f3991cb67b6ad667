import { StrategyStoreError } from "@x/strategy-store-core";
import type { DocumentTerms } from "@x/strategy-store-core/backend";

/**
 * One written document's postings before they are merged into its terms' blocks: a put writes
 * this one row (a few pages) instead of the newest block and totals of every term it holds (one
 * page each). `terms` lists the distinct terms space-separated between spaces (" a b c "), so SQL
 * finds the rows holding a query term with `instr`; `postings` holds, for the terms in that order,
 * every impact (float64), then six uint16 per term as a block does (field counts, then lengths).
 */
export interface PendingForm {
  terms: string;
  postings: Buffer;
}

/** A pending row's postings, decoded: `terms[i]` has `impacts[i]` and fields `6i` to `6i + 5`. */
export interface PendingPostings {
  terms: string[];
  impacts: Float64Array;
  fields: Uint16Array;
}

/** Documents a scope may hold pending before a write merges them into the blocks. */
export const PENDING_LIMIT = 512;

/** Pending documents from which a batch write merges a scope it wrote before it commits. */
export const BATCH_MERGE_MIN = 64;

export function encodePending(terms: DocumentTerms): PendingForm {
  const n = terms.postings.length;
  const impacts = new Float64Array(n);
  const fields = new Uint16Array(n * 6);
  terms.postings.forEach((posting, i) => {
    impacts[i] = posting.impact;
    fields.set(posting.counts, i * 6);
    fields.set(terms.lengths, i * 6 + 3);
  });
  const postings = Buffer.alloc(n * 20);
  postings.set(new Uint8Array(impacts.buffer), 0);
  postings.set(new Uint8Array(fields.buffer), n * 8);
  return { terms: ` ${terms.postings.map((posting) => posting.term).join(" ")} `, postings };
}

export function decodePending(terms: unknown, postings: unknown): PendingPostings {
  if (typeof terms !== "string" || !(postings instanceof Uint8Array)) throw malformed();
  const list = terms.trim() === "" ? [] : terms.trim().split(" ");
  const n = list.length;
  if (postings.byteLength !== n * 20) throw malformed();
  // A Buffer not aligned for a Float64Array view (one from a shared pool) is copied first.
  const bytes = postings.byteOffset % 8 === 0 ? postings : new Uint8Array(postings);
  return {
    terms: list,
    impacts: new Float64Array(bytes.buffer, bytes.byteOffset, n),
    fields: new Uint16Array(bytes.buffer, bytes.byteOffset + n * 8, n * 6),
  };
}

function malformed(): StrategyStoreError {
  return new StrategyStoreError("backend", "a stored pending posting row is malformed");
}
