import { describe, expect, it } from "vitest";
import { decodePostings } from "./lexical-index";

/** Postings as the `posting` column packs them: int8 `seq`, then six int2, network byte order. */
function packed(postings: ReadonlyArray<{ seq: number; fields: readonly number[] }>): Uint8Array {
  const bytes = Buffer.alloc(postings.length * 20);
  postings.forEach(({ seq, fields }, i) => {
    bytes.writeBigInt64BE(BigInt(seq), i * 20);
    fields.forEach((value, f) => bytes.writeUInt16BE(value, i * 20 + 8 + 2 * f));
  });
  return bytes;
}

describe("decodePostings", () => {
  it("reads seq and the six fields of every posting, in order", () => {
    const run = decodePostings(
      packed([
        { seq: 3, fields: [1, 0, 0, 9, 12, 0] },
        { seq: 2 ** 40 + 7, fields: [0, 2, 1, 4, 30, 2] },
      ]),
    );
    expect(Array.from(run.seqs)).toEqual([3, 2 ** 40 + 7]);
    expect(Array.from(run.fields)).toEqual([1, 0, 0, 9, 12, 0, 0, 2, 1, 4, 30, 2]);
  });

  it("sorts a run the database did not aggregate in seq order, each posting kept with its fields", () => {
    const run = decodePostings(
      packed([
        { seq: 50, fields: [5, 0, 0, 50, 0, 0] },
        { seq: 10, fields: [1, 0, 0, 10, 0, 0] },
        { seq: 30, fields: [3, 0, 0, 30, 0, 0] },
      ]),
    );
    expect(Array.from(run.seqs)).toEqual([10, 30, 50]);
    expect(Array.from(run.fields)).toEqual([1, 0, 0, 10, 0, 0, 3, 0, 0, 30, 0, 0, 5, 0, 0, 50, 0, 0]);
  });
});
