import { StrategyStoreError } from "@x/strategy-store-core";
import type { FieldTriple } from "@x/strategy-store-core/backend";

/**
 * Postings of one term in one scope, `seq` ascending, as one blob: every `seq` (float64), then six
 * uint16 per posting (field counts, then field lengths; LIMITS keep both far below 65,536). Typed
 * arrays in the platform's byte order, little-endian on every platform Node runs on.
 */
export interface PostingBlock {
  seqs: Float64Array;
  /** Six per posting: problem, strategy and tags counts, then the same three lengths. */
  fields: Uint16Array;
}

/** Postings one block holds at most: a block row stays inside its B-tree page (no overflow page to write). */
export const BLOCK_POSTINGS = 40;

const SEQ_BYTES = 8;
const FIELD_BYTES = 12;

export function decodeBlock(blob: unknown): PostingBlock {
  if (!(blob instanceof Uint8Array) || blob.byteLength % (SEQ_BYTES + FIELD_BYTES) !== 0) {
    throw new StrategyStoreError("backend", "a stored posting block is malformed");
  }
  const n = blob.byteLength / (SEQ_BYTES + FIELD_BYTES);
  // A Buffer not aligned for a Float64Array view (one from a shared pool) is copied first.
  const bytes = blob.byteOffset % SEQ_BYTES === 0 ? blob : new Uint8Array(blob);
  return {
    seqs: new Float64Array(bytes.buffer, bytes.byteOffset, n),
    fields: new Uint16Array(bytes.buffer, bytes.byteOffset + n * SEQ_BYTES, n * 6),
  };
}

export function encodeBlock(block: PostingBlock): Buffer {
  const n = block.seqs.length;
  const blob = Buffer.alloc(n * (SEQ_BYTES + FIELD_BYTES));
  blob.set(new Uint8Array(block.seqs.buffer, block.seqs.byteOffset, n * SEQ_BYTES), 0);
  blob.set(new Uint8Array(block.fields.buffer, block.fields.byteOffset, n * FIELD_BYTES), n * SEQ_BYTES);
  return blob;
}

/** Position of `seq` in the block, or of where it would go (`found` false). */
export function locate(block: PostingBlock, seq: number): { at: number; found: boolean } {
  let lo = 0;
  let hi = block.seqs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (block.seqs[mid]! < seq) lo = mid + 1;
    else hi = mid;
  }
  return { at: lo, found: block.seqs[lo] === seq };
}

/** The block with one posting more (at its place by `seq`). */
export function withPosting(block: PostingBlock, seq: number, counts: FieldTriple, lengths: FieldTriple): PostingBlock {
  const { at } = locate(block, seq);
  const n = block.seqs.length;
  const seqs = new Float64Array(n + 1);
  seqs.set(block.seqs.subarray(0, at), 0);
  seqs[at] = seq;
  seqs.set(block.seqs.subarray(at), at + 1);
  const fields = new Uint16Array((n + 1) * 6);
  fields.set(block.fields.subarray(0, at * 6), 0);
  fields.set([...counts, ...lengths], at * 6);
  fields.set(block.fields.subarray(at * 6), (at + 1) * 6);
  return { seqs, fields };
}

/** The block without the posting at `at`. */
export function withoutPosting(block: PostingBlock, at: number): PostingBlock {
  const seqs = new Float64Array(block.seqs.length - 1);
  seqs.set(block.seqs.subarray(0, at), 0);
  seqs.set(block.seqs.subarray(at + 1), at);
  const fields = new Uint16Array(seqs.length * 6);
  fields.set(block.fields.subarray(0, at * 6), 0);
  fields.set(block.fields.subarray((at + 1) * 6), at * 6);
  return { seqs, fields };
}

/** The postings from `from` on, as a block of their own. */
export function sliceBlock(block: PostingBlock, from: number, to = block.seqs.length): PostingBlock {
  return { seqs: block.seqs.slice(from, to), fields: block.fields.slice(from * 6, to * 6) };
}

/** One block of every posting of `runs` (each ascending, none sharing a `seq`), ascending. */
export function mergeBlocks(runs: readonly PostingBlock[]): PostingBlock {
  const order = runs
    .flatMap((run, r) => Array.from(run.seqs, (seq, i) => ({ seq, r, i })))
    .sort((a, b) => a.seq - b.seq);
  const seqs = new Float64Array(order.length);
  const fields = new Uint16Array(order.length * 6);
  order.forEach(({ seq, r, i }, at) => {
    seqs[at] = seq;
    fields.set(runs[r]!.fields.subarray(i * 6, i * 6 + 6), at * 6);
  });
  return { seqs, fields };
}

/** The block with `after`'s postings (every `seq` above the block's) at its end. */
export function appendBlock(block: PostingBlock, after: PostingBlock): PostingBlock {
  const seqs = new Float64Array(block.seqs.length + after.seqs.length);
  seqs.set(block.seqs, 0);
  seqs.set(after.seqs, block.seqs.length);
  const fields = new Uint16Array(seqs.length * 6);
  fields.set(block.fields, 0);
  fields.set(after.fields, block.fields.length);
  return { seqs, fields };
}
