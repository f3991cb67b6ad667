import { describe, expect, it } from "vitest";
import type { ConformanceHarness } from "./harness";
import { expectStoreError, listAll, sample, uniqueScope, withStore } from "./harness";

export function crudSuite(h: ConformanceHarness): void {
  describe("CRUD", () => {
    it("put returns the stored record and get reads it back", () =>
      withStore(h, async (store) => {
        const scope = uniqueScope("crud");
        const record = await store.put({
          ...sample(scope, 1),
          correction: "you restarted the wrong service",
          nextStep: "run systemctl restart widget",
          tags: ["ops", "widget"],
        });
        expect(record).toMatchObject({
          scope,
          problem: "sample problem number 1 about flaky widget deployment",
          correction: "you restarted the wrong service",
          nextStep: "run systemctl restart widget",
          confidence: 2,
          source: "teacher",
          uses: 0,
          successes: 0,
          tags: ["ops", "widget"],
        });
        expect(record.id).toMatch(/^\S+$/);
        expect(Date.parse(record.createdAt)).not.toBeNaN();
        expect(record.updatedAt).toBe(record.createdAt);
        expect(await store.get(scope, record.id)).toEqual(record);
      }));

    it("absent optional fields stay absent", () =>
      withStore(h, async (store) => {
        const scope = uniqueScope("crud");
        const record = await store.put({ ...sample(scope, 2), correction: null, nextStep: "  " });
        const read = await store.get(scope, record.id);
        expect(read?.correction).toBeUndefined();
        expect(read?.nextStep).toBeUndefined();
        expect(read?.embedding).toBeUndefined();
        expect(read?.tags).toEqual([]);
      }));

    it("delete removes the record, and a second delete reports false", () =>
      withStore(h, async (store) => {
        const scope = uniqueScope("crud");
        const keep = await store.put(sample(scope, 1));
        const gone = await store.put(sample(scope, 2));
        expect(await store.delete(scope, gone.id)).toBe(true);
        expect(await store.get(scope, gone.id)).toBeUndefined();
        expect(await store.delete(scope, gone.id)).toBe(false);
        expect((await listAll(store, scope)).map((r) => r.id)).toEqual([keep.id]);
        const hits = await store.search({ scope, query: "sample problem number 2 flaky widget", k: 10 });
        expect(hits.map((hit) => hit.record.id)).toEqual([keep.id]);
        // The same strategy can be stored again after its record was deleted.
        const again = await store.put(sample(scope, 2));
        expect(again.id).not.toBe(gone.id);
      }));

    it("recordOutcome counts uses and successes", () =>
      withStore(h, async (store) => {
        const scope = uniqueScope("crud");
        const record = await store.put(sample(scope, 1));
        await store.recordOutcome(scope, record.id, true);
        await store.recordOutcome(scope, record.id, false);
        const after = await store.recordOutcome(scope, record.id, true);
        expect(after).toMatchObject({ id: record.id, uses: 3, successes: 2 });
        expect(await store.get(scope, record.id)).toMatchObject({ uses: 3, successes: 2 });
        await expectStoreError(store.recordOutcome(scope, "no-such-id", true), "not_found");
      }));

    it("list pages through every record once, in id order (keyset pagination)", () =>
      withStore(h, async (store) => {
        const scope = uniqueScope("list");
        const ids: string[] = [];
        for (let n = 0; n < 23; n++) ids.push((await store.put(sample(scope, n))).id);
        const seen: string[] = [];
        let cursor: string | undefined;
        let pages = 0;
        do {
          const page = await store.list({ scope, limit: 5, ...(cursor === undefined ? {} : { cursor }) });
          expect(page.records.length).toBeLessThanOrEqual(5);
          seen.push(...page.records.map((r) => r.id));
          cursor = page.nextCursor;
          pages++;
        } while (cursor !== undefined);
        expect(pages).toBe(5);
        expect(seen).toEqual([...ids].sort());
        // A write between pages neither repeats nor skips what was already listed.
        const first = await store.list({ scope, limit: 10 });
        await store.delete(scope, first.records[0]!.id);
        const second = await store.list({ scope, limit: 10, cursor: first.nextCursor! });
        expect(second.records.map((r) => r.id)).toEqual(seen.slice(10, 20));
        expect((await store.list({ scope: uniqueScope("empty") })).records).toEqual([]);
      }));

    it("a closed store refuses every call with closed, and close is idempotent", async () => {
      const store = await h.open();
      const scope = uniqueScope("closed");
      const record = await store.put(sample(scope, 1));
      await store.close();
      await store.close();
      await expectStoreError(store.put(sample(scope, 2)), "closed");
      await expectStoreError(store.search({ scope, query: "widget", k: 3 }), "closed");
      await expectStoreError(store.recordOutcome(scope, record.id, true), "closed");
      await expectStoreError(store.get(scope, record.id), "closed");
      await expectStoreError(store.list({ scope }), "closed");
      await expectStoreError(store.delete(scope, record.id), "closed");
      await expectStoreError(store.putMany([sample(scope, 3)]), "closed");
    });
  });

  describe("putMany", () => {
    it("writes a batch like puts in order: records returned in input order, duplicates merged, searchable", () =>
      withStore(h, async (store) => {
        const scope = uniqueScope("batch");
        const other = uniqueScope("batch-other");
        const records = await store.putMany([
          sample(scope, 1, { tags: ["a"] }),
          sample(other, 2),
          sample(scope, 3),
          sample(scope, 1, { tags: ["b"], confidence: 3 }),
        ]);
        expect(records.map((record) => record.scope)).toEqual([scope, other, scope, scope]);
        expect(records[3]!.id).toBe(records[0]!.id);
        expect(records[3]).toMatchObject({ confidence: 3, tags: ["a", "b"] });
        const stored = await listAll(store, scope);
        expect(stored.map((record) => record.id).sort()).toEqual([records[0]!.id, records[2]!.id].sort());
        expect(await store.get(scope, records[0]!.id)).toEqual(records[3]);
        expect((await store.search({ scope, query: "sample problem number 3", k: 1 }))[0]?.record.id).toBe(
          records[2]!.id,
        );
        expect(await store.putMany([])).toEqual([]);
      }));

    it("one invalid input rejects the whole batch with invalid_input naming its index, and writes nothing", () =>
      withStore(h, async (store) => {
        const scope = uniqueScope("batch-bad");
        const error = await expectStoreError(
          store.putMany([sample(scope, 1), { ...sample(scope, 2), problem: "" }]),
          "invalid_input",
        );
        expect(error).toMatchObject({ fields: ["1.problem"] });
        await expectStoreError(store.putMany("nope" as never), "invalid_input");
        expect(await listAll(store, scope)).toEqual([]);
      }));
  });

  describe("dedupe", () => {
    it("the same normalised strategy in one scope updates the record instead of adding one", () =>
      withStore(h, async (store) => {
        const scope = uniqueScope("dedupe");
        const first = await store.put({ ...sample(scope, 1), correction: "first correction", tags: ["a"] });
        await store.recordOutcome(scope, first.id, true);
        const second = await store.put({
          ...sample(scope, 1),
          problem: "a reworded problem about the widget deployment",
          strategy: "  SAMPLE strategy number 1:   restart the widget service and check its logs.  ",
          confidence: 3,
          tags: ["b", "a"],
        });
        expect(second.id).toBe(first.id);
        expect(second).toMatchObject({
          problem: "a reworded problem about the widget deployment",
          confidence: 3,
          correction: "first correction",
          uses: 1,
          successes: 1,
          tags: ["a", "b"],
          createdAt: first.createdAt,
        });
        expect(Date.parse(second.updatedAt)).toBeGreaterThanOrEqual(Date.parse(first.updatedAt));
        expect(await listAll(store, scope)).toHaveLength(1);
        const hits = await store.search({ scope, query: "reworded widget deployment problem", k: 5 });
        expect(hits.map((hit) => hit.record.id)).toEqual([first.id]);
      }));

    it("the same strategy in another scope is a separate record", () =>
      withStore(h, async (store) => {
        const a = uniqueScope("dedupe-a");
        const b = uniqueScope("dedupe-b");
        const ra = await store.put(sample(a, 1));
        const rb = await store.put(sample(b, 1));
        expect(rb.id).not.toBe(ra.id);
        expect(await listAll(store, a)).toHaveLength(1);
        expect(await listAll(store, b)).toHaveLength(1);
      }));

    it("different strategies for the same problem are kept apart", () =>
      withStore(h, async (store) => {
        const scope = uniqueScope("dedupe");
        await store.put(sample(scope, 1, { strategy: "clear the cache" }));
        await store.put(sample(scope, 1, { strategy: "clear the cache and rebuild" }));
        expect(await listAll(store, scope)).toHaveLength(2);
      }));
  });
}
