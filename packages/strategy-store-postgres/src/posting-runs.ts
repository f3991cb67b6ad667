import type { PostingRun } from "@x/strategy-store-core/backend";

/** Core's run, in typed arrays this decoder fills. */
type DecodedRun = PostingRun & { seqs: Float64Array; fields: Uint16Array };

/** int8 `seq`, then six int2 (counts, then lengths), network byte order: the `posting` column. */
const POSTING_BYTES = 8 + 6 * 2;

/**
 * Decodes a search's postings — each query term's as base64 of the packed `posting` values — into
 * one run per term, all of them views into arrays this object keeps and reuses. A search at 100k
 * records decodes about 100 KiB; in fresh arrays, held outside the JS heap, that churn set off a
 * full collection every 30 or so searches, most of the search's tail. The runs are valid until the
 * next `decode`: a search ranks with them before its next `await` and keeps only seqs and scores.
 */
export class PostingRuns {
  private bytes = Buffer.alloc(0);
  private seqs = new Float64Array(0);
  private fields = new Uint16Array(0);

  decode(encoded: readonly string[]): DecodedRun[] {
    const room = encoded.reduce((sum, text) => sum + Math.ceil((text.length * 3) / 4), 0);
    if (this.bytes.length < room) this.bytes = Buffer.alloc(Math.max(room, 2 * this.bytes.length));
    const spans: Array<{ start: number; end: number }> = [];
    let end = 0;
    for (const text of encoded) {
      const start = end;
      end += this.bytes.write(text, start, "base64");
      spans.push({ start, end });
    }
    const postings = spans.reduce((sum, span) => sum + Math.floor((span.end - span.start) / POSTING_BYTES), 0);
    if (this.seqs.length < postings) {
      this.seqs = new Float64Array(Math.max(postings, 2 * this.seqs.length));
      this.fields = new Uint16Array(this.seqs.length * 6);
    }
    let at = 0;
    return spans.map(({ start, end: stop }) => {
      const n = Math.floor((stop - start) / POSTING_BYTES);
      const run = { seqs: this.seqs.subarray(at, at + n), fields: this.fields.subarray(at * 6, (at + n) * 6) };
      at += n;
      return readPostings(this.bytes.subarray(start, stop), run);
    });
  }
}

/**
 * Fills `run` from packed postings. The statement aggregates them in index order, but SQL promises
 * no order for an aggregate's input, so a run that is not ascending is sorted (into arrays of its
 * own) rather than trusted: one pass to check. LIMITS keep counts and lengths far below 32,768.
 */
function readPostings(bytes: Uint8Array, run: DecodedRun): DecodedRun {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const { seqs, fields } = run;
  let ascending = true;
  for (let i = 0, o = 0; i < seqs.length; i++, o += POSTING_BYTES) {
    seqs[i] = view.getUint32(o) * 2 ** 32 + view.getUint32(o + 4);
    for (let f = 0; f < 6; f++) fields[i * 6 + f] = view.getUint16(o + 8 + 2 * f);
    if (i > 0 && seqs[i]! <= seqs[i - 1]!) ascending = false;
  }
  return ascending ? run : sortedRun(run);
}

function sortedRun({ seqs, fields }: DecodedRun): DecodedRun {
  const order = Array.from(seqs.keys()).sort((a, b) => seqs[a]! - seqs[b]!);
  const sorted = { seqs: new Float64Array(seqs.length), fields: new Uint16Array(fields.length) };
  order.forEach((from, to) => {
    sorted.seqs[to] = seqs[from]!;
    sorted.fields.set(fields.subarray(from * 6, from * 6 + 6), to * 6);
  });
  return sorted;
}
