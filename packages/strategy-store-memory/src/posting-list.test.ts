import { describe, expect, it } from "vitest";
import { PostingList } from "./posting-list";

// Counts carry the seq, so every posting read back shows whose it is.
function insert(list: PostingList, seq: number): void {
  list.insert(seq, (seq % 13) / 4, [seq % 7, seq % 5, 0], [12, 16, 3]);
}

function readAll(list: PostingList): number[] {
  const seen: number[] = [];
  for (const run of list.runs()) {
    for (let i = 0; i < run.seqs.length; i++) {
      const seq = run.seqs[i]!;
      expect([...Array.from(run.fields).slice(i * 6, i * 6 + 6)]).toEqual([seq % 7, seq % 5, 0, 12, 16, 3]);
      seen.push(seq);
    }
  }
  return seen;
}

describe("PostingList", () => {
  it("keeps thousands of postings ascending by seq across chunks, whatever order they come in", () => {
    const list = new PostingList();
    const seqs = Array.from({ length: 5000 }, (_, i) => (i * 7919) % 5000);
    for (const seq of seqs) insert(list, seq);
    expect(list.size).toBe(5000);
    expect(list.bestImpact).toBe(3);
    expect(readAll(list)).toEqual(Array.from({ length: 5000 }, (_, i) => i));
    expect(list.runs().length).toBeGreaterThan(1);
  });

  it("removes exactly the given document's posting, and reports one that is not there", () => {
    const list = new PostingList();
    for (let seq = 0; seq < 3000; seq++) insert(list, seq);
    for (let seq = 0; seq < 3000; seq += 3) expect(list.remove(seq)).toBe(true);
    expect(list.remove(0)).toBe(false);
    expect(list.remove(-1)).toBe(false);
    expect(list.remove(99_999)).toBe(false);
    const kept = Array.from({ length: 3000 }, (_, i) => i).filter((seq) => seq % 3 !== 0);
    expect(list.size).toBe(kept.length);
    expect(readAll(list)).toEqual(kept);
    for (const seq of kept) list.remove(seq);
    expect(readAll(list)).toEqual([]);
    insert(list, 1);
    expect(readAll(list)).toEqual([1]);
  });

  it("finds the runs covering given documents, each once, ascending", () => {
    const list = new PostingList();
    for (let seq = 0; seq < 3000; seq++) insert(list, seq);
    const runs = list.runs();
    const wanted = [0, 1, 2, 1500, 1501, 2999];
    const covering = list.covering(wanted);
    expect(covering).toEqual(runs.filter((run) => wanted.some((seq) => Array.from(run.seqs).includes(seq))));
    expect(list.covering([])).toEqual([]);
  });
});
