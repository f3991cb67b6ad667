import { describe, expect, it } from "vitest";
import type { ConformanceHarness } from "./harness";
import { listAll, sample, uniqueScope } from "./harness";

const WORDS = ["alpha", "bravo", "charlie", "delta", "echo"];

export function concurrencySuite(h: ConformanceHarness): void {
  const openSecond = h.openSecond?.bind(h);
  const reopen = h.reopen?.bind(h);
  if (openSecond) {
    describe("two instances racing on one database", () => {
      it("concurrent puts of the same strategies from both instances make one record each", async () => {
        const a = await h.open();
        const b = await openSecond();
        try {
          const scope = uniqueScope("race-put");
          const puts = [];
          for (let n = 0; n < 12; n++)
            puts.push(a.put(sample(scope, n, { tags: ["from-a"] })), b.put(sample(scope, n, { tags: ["from-b"] })));
          const results = await Promise.all(puts);
          const records = await listAll(a, scope);
          expect(records).toHaveLength(12);
          expect(new Set(results.map((record) => record.id))).toEqual(new Set(records.map((record) => record.id)));
          for (const record of records) expect([...record.tags].sort()).toEqual(["from-a", "from-b"]);
        } finally {
          await a.close();
          await b.close();
        }
      });

      it("concurrent outcomes and puts from both instances lose no update", async () => {
        const a = await h.open();
        const b = await openSecond();
        try {
          const scope = uniqueScope("race-outcome");
          const target = await a.put(sample(scope, 1));
          const ops: Array<Promise<unknown>> = [];
          for (let i = 0; i < 30; i++) {
            ops.push(a.recordOutcome(scope, target.id, i % 3 === 0));
            ops.push(b.recordOutcome(scope, target.id, true));
            if (i % 5 === 0) ops.push((i % 2 ? a : b).put(sample(scope, 1, { confidence: 3 })));
            if (i % 5 === 0) ops.push((i % 2 ? b : a).put(sample(scope, 100 + i)));
          }
          await Promise.all(ops);
          expect(await b.get(scope, target.id)).toMatchObject({ uses: 60, successes: 40, confidence: 3 });
          expect(await listAll(b, scope)).toHaveLength(7);
        } finally {
          await a.close();
          await b.close();
        }
      });
    });
  }

  if (reopen) {
    describe("durability", () => {
      it("reopening after close keeps every record, counter and the search index", async () => {
        const first = await h.open();
        const scope = uniqueScope("durable");
        const records = [];
        for (let n = 0; n < 5; n++)
          records.push(
            await first.put(sample(scope, n, { tags: [`t${n}`], problem: `durable problem about ${WORDS[n]}` })),
          );
        await first.recordOutcome(scope, records[2]!.id, true);
        const expected = await listAll(first, scope);
        await first.close();
        const second = await reopen();
        try {
          expect(await listAll(second, scope)).toEqual(expected);
          const hits = await second.search({ scope, query: "a durable problem about delta", k: 1 });
          expect(hits[0]?.record.id).toBe(records[3]!.id);
          const again = await second.put(sample(scope, 4));
          expect(again.id).toBe(records[4]!.id);
        } finally {
          await second.close();
        }
      });
    });
  }
}
