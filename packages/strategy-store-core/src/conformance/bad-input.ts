import { describe, expect, it } from "vitest";
import { LIMITS } from "../limits";
import type { StrategyInput } from "../record";
import type { ConformanceHarness } from "./harness";
import { expectStoreError, listAll, sample, uniqueScope, withStore } from "./harness";

const OVERSIZED = "overflow ".repeat(Math.ceil((LIMITS.text + 1) / 9));

/** Each case turns a valid input into an invalid one. */
const BAD_PUTS: Array<[string, (valid: StrategyInput) => unknown]> = [
  ["empty scope", (v) => ({ ...v, scope: "" })],
  ["blank scope", (v) => ({ ...v, scope: "   " })],
  ["oversized scope", (v) => ({ ...v, scope: "s".repeat(LIMITS.scope + 1) })],
  ["scope with a NUL byte", (v) => ({ ...v, scope: `${v.scope}\u0000x` })],
  ["non-string scope", (v) => ({ ...v, scope: 42 })],
  ["empty problem", (v) => ({ ...v, problem: "" })],
  ["oversized problem", (v) => ({ ...v, problem: OVERSIZED })],
  ["oversized strategy", (v) => ({ ...v, strategy: OVERSIZED })],
  ["oversized correction", (v) => ({ ...v, correction: OVERSIZED })],
  ["strategy with a NUL byte", (v) => ({ ...v, strategy: "restart\u0000 the service" })],
  ["problem with a lone surrogate", (v) => ({ ...v, problem: "broken \uD800 text" })],
  ["confidence above 3", (v) => ({ ...v, confidence: 4 })],
  ["negative confidence", (v) => ({ ...v, confidence: -1 })],
  ["fractional confidence", (v) => ({ ...v, confidence: 1.5 })],
  ["NaN confidence", (v) => ({ ...v, confidence: Number.NaN })],
  ["string confidence", (v) => ({ ...v, confidence: "2" })],
  ["empty source", (v) => ({ ...v, source: "" })],
  ["too many tags", (v) => ({ ...v, tags: Array.from({ length: LIMITS.tags + 1 }, (_, i) => `t${i}`) })],
  ["embedding with NaN", (v) => ({ ...v, embedding: [0.1, Number.NaN] })],
  ["missing strategy", ({ strategy: _strategy, ...rest }) => rest],
  ["null input", () => null],
];

const SQL_META = `'; DROP TABLE strategies; -- " \\ % _ $1 ? :name @p0 /* */ NEAR("a" "b") AND OR NOT * ^col: (x)`;
const TAG_META = `'; DROP TABLE t; -- % _ "*`;
const UNICODE = "Überprüfung naïve café 数据库连接 🙂‍↔️ עברית e\u0301 \u200B zero-width";

function forgedCursor(after: unknown): string {
  return Buffer.from(JSON.stringify({ v: 1, after }), "utf8").toString("base64url");
}

export function badInputSuite(h: ConformanceHarness): void {
  describe("bad input", () => {
    it("rejects each bad put with invalid_input, echoes no value, and stores nothing", () =>
      withStore(h, async (store) => {
        const scope = uniqueScope("bad");
        for (const [label, mutate] of BAD_PUTS) {
          const error = await expectStoreError(store.put(mutate(sample(scope, 1)) as StrategyInput), "invalid_input");
          expect(error.message, label).not.toContain("overflow overflow");
          expect(error.message, label).not.toContain("restart");
        }
        expect(await listAll(store, scope)).toEqual([]);
        expect(await store.search({ scope, query: "sample widget deployment restart", k: 10 })).toEqual([]);
      }));

    it("rejects bad search, list, get, outcome and delete arguments with invalid_input", () =>
      withStore(h, async (store) => {
        const scope = uniqueScope("bad");
        const record = await store.put(sample(scope, 1));
        const bad: Array<Promise<unknown>> = [
          store.search({ scope: "", query: "widget", k: 3 }),
          store.search({ scope, query: "widget", k: 0 }),
          store.search({ scope, query: "widget", k: LIMITS.k + 1 }),
          store.search({ scope, query: "widget", k: 2.5 }),
          store.search({ scope, query: "widget\u0000", k: 3 }),
          store.search({ scope, query: "widget \uD800", k: 3 }),
          store.search({ scope, query: OVERSIZED, k: 3 }),
          store.search({ scope, query: "widget", k: 3, minScore: -1 }),
          store.list({ scope, limit: 0 }),
          store.list({ scope, cursor: "not-a-cursor" }),
          // Forged cursors: well-formed wrapping around an `after` no store would issue.
          store.list({ scope, cursor: forgedCursor("\u0000") }),
          store.list({ scope, cursor: forgedCursor("x\uD800") }),
          store.list({ scope, cursor: forgedCursor(42) }),
          store.get("", record.id),
          store.get(scope, ""),
          store.recordOutcome(scope, record.id, "yes" as unknown as boolean),
          store.recordOutcome("", record.id, true),
          store.delete(scope, "\u0000"),
        ];
        for (const promise of bad) await expectStoreError(promise, "invalid_input");
        expect(await store.get(scope, record.id)).toMatchObject({ uses: 0, successes: 0 });
      }));

    it("SQL and full-text metacharacters are plain text: stored, searched and returned verbatim", () =>
      withStore(h, async (store) => {
        const scope = `${uniqueScope("meta")} ${SQL_META}`;
        const record = await store.put({
          scope,
          problem: `gateway ${SQL_META}`,
          strategy: `strategy ${SQL_META}`,
          confidence: 1,
          source: SQL_META,
          tags: [TAG_META],
        });
        expect(await store.get(scope, record.id)).toEqual(record);
        expect(record).toMatchObject({ scope, problem: `gateway ${SQL_META}`, source: SQL_META, tags: [TAG_META] });
        for (const query of [SQL_META, `gateway ${SQL_META}`, '"', "'", "*", "(", "NEAR(", "a:b", "-x", "AND", "\\"]) {
          const hits = await store.search({ scope, query, k: 3 });
          for (const hit of hits) expect(hit.record.id).toBe(record.id);
        }
        expect((await store.search({ scope, query: `gateway ${SQL_META}`, k: 3 }))[0]?.record.id).toBe(record.id);
        expect(await listAll(store, scope)).toHaveLength(1);
      }));

    it("unicode text round-trips exactly and is searchable", () =>
      withStore(h, async (store) => {
        const scope = `${uniqueScope("unicode")}-租户-🙂`;
        const record = await store.put({
          scope,
          problem: `${UNICODE} problem`,
          strategy: `${UNICODE} strategy`,
          confidence: 3,
          source: "teacher",
        });
        expect(await store.get(scope, record.id)).toEqual(record);
        expect(record.problem).toBe(`${UNICODE} problem`);
        const hits = await store.search({ scope, query: "Überprüfung", k: 3 });
        expect(hits.map((hit) => hit.record.id)).toEqual([record.id]);
      }));
  });
}
