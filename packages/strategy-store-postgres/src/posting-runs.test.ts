import { describe, expect, it } from "vitest";
import { PostingRuns } from "./posting-runs";

type Posting = { seq: number; fields: readonly number[] };

/**
 * Postings as a search receives them: the `posting` column's packing (int8 `seq`, six int2,
 * network byte order) in base64, broken into lines of 76 as PostgreSQL's `encode` writes it.
 */
function encoded(postings: readonly Posting[]): string {
  const bytes = Buffer.alloc(postings.length * 20);
  postings.forEach(({ seq, fields }, i) => {
    bytes.writeBigInt64BE(BigInt(seq), i * 20);
    fields.forEach((value, f) => bytes.writeUInt16BE(value, i * 20 + 8 + 2 * f));
  });
  return (bytes.toString("base64").match(/.{1,76}/g) ?? []).join("\n");
}

const plain = (run: { seqs: Float64Array; fields: Uint16Array }) => ({
  seqs: Array.from(run.seqs),
  fields: Array.from(run.fields),
});

describe("PostingRuns", () => {
  it("decodes one run per term, every seq and its six fields, from base64 with line breaks", () => {
    const many = Array.from({ length: 40 }, (_, i) => ({ seq: 2 ** 40 + i, fields: [i % 3, 1, 0, 9, 12, 0] }));
    const runs = new PostingRuns().decode([encoded([{ seq: 3, fields: [1, 0, 0, 9, 12, 0] }]), encoded(many)]);
    expect(runs.map(plain)).toEqual([
      { seqs: [3], fields: [1, 0, 0, 9, 12, 0] },
      { seqs: many.map((p) => p.seq), fields: many.flatMap((p) => p.fields) },
    ]);
  });

  it("reuses its arrays: a later decode, larger or smaller, reads its own postings only", () => {
    const runs = new PostingRuns();
    const big = Array.from({ length: 500 }, (_, i) => ({ seq: i + 1, fields: [1, 2, 3, 4, 5, 6] }));
    expect(runs.decode([encoded(big)]).map(plain)[0]!.seqs).toHaveLength(500);
    const small = [{ seq: 7, fields: [0, 1, 0, 3, 4, 5] }];
    expect(runs.decode([encoded(small), encoded([])]).map(plain)).toEqual([
      { seqs: [7], fields: [0, 1, 0, 3, 4, 5] },
      { seqs: [], fields: [] },
    ]);
  });

  it("sorts a run the database did not aggregate in seq order, each posting kept with its fields", () => {
    const [run] = new PostingRuns().decode([
      encoded([
        { seq: 50, fields: [5, 0, 0, 50, 0, 0] },
        { seq: 10, fields: [1, 0, 0, 10, 0, 0] },
        { seq: 30, fields: [3, 0, 0, 30, 0, 0] },
      ]),
    ]);
    expect(plain(run!)).toEqual({
      seqs: [10, 30, 50],
      fields: [1, 0, 0, 10, 0, 0, 3, 0, 0, 30, 0, 0, 5, 0, 0, 50, 0, 0],
    });
  });
});
