import { describe, expect, it } from "vitest";
import { PostingList } from "./posting-list";

interface Doc {
  seq: number;
  impact: number;
}

// Few distinct impacts, so long runs of equal impacts span chunk boundaries.
function docs(n: number): Doc[] {
  return Array.from({ length: n }, (_, seq) => ({ seq, impact: ((seq * 7919) % 13) / 4 }));
}

function expectedOrder(list: readonly Doc[]): number[] {
  return [...list].sort((a, b) => b.impact - a.impact || a.seq - b.seq).map((doc) => doc.seq);
}

function readAll(list: PostingList<Doc>, limit = Number.MAX_SAFE_INTEGER): number[] {
  const seen: number[] = [];
  list.forEachBest(limit, (doc, packed) => {
    expect(packed).toBe(doc.seq * 3);
    seen.push(doc.seq);
  });
  return seen;
}

describe("PostingList", () => {
  it("keeps thousands of postings in impact order, oldest first among equals, across chunks", () => {
    const all = docs(5000);
    const list = new PostingList<Doc>();
    for (const doc of all) list.insert(doc.impact, doc, doc.seq * 3);
    expect(list.size).toBe(5000);
    expect(readAll(list)).toEqual(expectedOrder(all));
    expect(readAll(list, 700)).toEqual(expectedOrder(all).slice(0, 700));
  });

  it("removes exactly the given document's posting, and reports one that is not there", () => {
    const all = docs(3000);
    const list = new PostingList<Doc>();
    for (const doc of all) list.insert(doc.impact, doc, doc.seq * 3);
    const kept = all.filter((doc) => doc.seq % 3 !== 0);
    for (const doc of all) if (doc.seq % 3 === 0) expect(list.remove(doc.impact, doc)).toBe(true);
    expect(list.remove(all[0]!.impact, all[0]!)).toBe(false);
    expect(list.remove(99, { seq: -1, impact: 99 })).toBe(false);
    expect(list.size).toBe(kept.length);
    expect(readAll(list)).toEqual(expectedOrder(kept));
    for (const doc of kept) list.remove(doc.impact, doc);
    expect(readAll(list)).toEqual([]);
    list.insert(1, all[1]!, 3);
    expect(readAll(list)).toEqual([1]);
  });
});
