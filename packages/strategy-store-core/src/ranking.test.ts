import { describe, expect, it } from "vitest";
import type { StrategyRecord } from "./record";
import { cosineSimilarity, outcomeFactor, rankCandidates, recordTerms, RRF_K } from "./ranking";

const record = (id: string, problem: string, extra: Partial<StrategyRecord> = {}): StrategyRecord => ({
  id,
  scope: "s",
  problem,
  strategy: "some strategy",
  confidence: 2,
  source: "test",
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
  uses: 0,
  successes: 0,
  tags: [],
  ...extra,
});

const lex = (r: StrategyRecord, score: number) => ({ record: r, score, terms: recordTerms(r) });

describe("rankCandidates", () => {
  it("keeps the backend's lexical order when outcomes are equal", () => {
    const hits = rankCandidates(
      "flaky deploy timeout",
      [lex(record("a", "flaky deploy timeout"), 9), lex(record("b", "deploy timeout"), 5)],
      undefined,
      { k: 3 },
    );
    expect(hits.map((hit) => hit.record.id)).toEqual(["a", "b"]);
    expect(hits[0]!.score).toBeCloseTo(1 * outcomeFactor({ uses: 0, successes: 0 }) * 0.98);
  });

  it("lets a success record decide between near-equal matches, but not bury a far better one", () => {
    const good = record("good", "deploy timeout", { uses: 10, successes: 10 });
    const bad = record("bad", "deploy timeout", { uses: 10, successes: 0 });
    const near = rankCandidates(
      "deploy timeout",
      [
        { record: bad, score: 5, terms: recordTerms(bad) },
        { record: good, score: 4.9, terms: recordTerms(good) },
      ],
      undefined,
      { k: 2 },
    );
    expect(near.map((hit) => hit.record.id)).toEqual(["good", "bad"]);
    const unrelatedButSuccessful = record("lucky", "unrelated words", { uses: 10, successes: 10 });
    const far = rankCandidates(
      "deploy timeout",
      [
        lex(record("match", "deploy timeout"), 10),
        { record: unrelatedButSuccessful, score: 1, terms: recordTerms(unrelatedButSuccessful) },
      ],
      undefined,
      { k: 2 },
    );
    expect(far[0]!.record.id).toBe("match");
  });

  it("fuses lexical and vector lists by reciprocal rank", () => {
    const onlyVector = record("v", "automobile");
    const both = record("b", "car engine");
    const hits = rankCandidates(
      "car engine",
      [{ record: both, score: 3, terms: recordTerms(both) }],
      [
        { record: onlyVector, similarity: 0.95, terms: recordTerms(onlyVector) },
        { record: both, similarity: 0.9, terms: recordTerms(both) },
      ],
      { k: 5 },
    );
    expect(hits.map((hit) => hit.record.id)).toEqual(["b", "v"]);
    // v is first in the vector list only: its order is its fused value over b's (first + second).
    const fused = 1 / (RRF_K + 1) / (1 / (RRF_K + 1) + 1 / (RRF_K + 2));
    expect(hits[1]!.score).toBeCloseTo((0.5 * fused + 0.5 * 0.95) * 0.98, 10);
    expect(hits[0]!.score).toBeCloseTo(0.98, 10);
  });

  it("applies k and minScore", () => {
    const candidates = ["a", "b", "c", "d"].map((id, i) => lex(record(id, "deploy"), 10 - i * 3));
    expect(rankCandidates("deploy", candidates, undefined, { k: 2 })).toHaveLength(2);
    const strict = rankCandidates("deploy", candidates, undefined, { k: 4, minScore: 0.9 });
    expect(strict.map((hit) => hit.record.id)).toEqual(["a"]);
  });

  it("outcomeFactor is 1 with no history and stays within 0.8..1.2", () => {
    expect(outcomeFactor({ uses: 0, successes: 0 })).toBe(1);
    expect(outcomeFactor({ uses: 1000, successes: 1000 })).toBeLessThan(1.2);
    expect(outcomeFactor({ uses: 1000, successes: 0 })).toBeGreaterThan(0.8);
  });

  it("cosineSimilarity treats mismatched or zero vectors as unrelated", () => {
    expect(cosineSimilarity([1, 0], [1, 0])).toBeCloseTo(1);
    expect(cosineSimilarity([1, 0], [1, 0, 0])).toBe(0);
    expect(cosineSimilarity([0, 0], [1, 0])).toBe(0);
  });
});
