import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor } from "./cursor";
import { newId } from "./id";
import { normaliseStrategy, strategyKey } from "./normalise";
import { embedOne, mergeRecord, newRecord, prepareStrategy } from "./prepare";
import { queryWords, tokenize } from "./tokenize";

const input = { scope: "s", problem: "p", strategy: "Restart the service.", confidence: 2, source: "teacher" };

describe("normalisation and dedupe key", () => {
  it("ignores case, spacing, Unicode width and end punctuation", () => {
    expect(normaliseStrategy("  Restart   the SERVICE. ")).toBe("restart the service");
    expect(strategyKey("Restart the service.")).toBe(strategyKey("restart  the service"));
    expect(strategyKey("ｒｅｓｔａｒｔ the service")).toBe(strategyKey("restart the service"));
    expect(strategyKey("restart the service")).not.toBe(strategyKey("restart the server"));
  });
});

describe("tokenize / queryWords", () => {
  it("drops stopwords and single letters, stems English words, keeps numbers", () => {
    expect(tokenize("The tests are failing in a CI run 3")).toEqual(["test", "fail", "ci", "run", "3"]);
  });
  it("queryWords keeps case for the database to fold, and only letters and digits (no operators)", () => {
    expect(queryWords(`Überprüfung "OR" NEAR(x) ' ; -- überprüfung`)).toEqual(["Überprüfung", "NEAR", "überprüfung"]);
  });
});

describe("prepareStrategy / mergeRecord", () => {
  it("validates, dedupes tags and embeds the problem", async () => {
    const prepared = await prepareStrategy({ ...input, tags: ["a", "a", " b"] }, async (texts) =>
      texts.map(() => [1, 2]),
    );
    expect(prepared).toMatchObject({ tags: ["a", "b"], embedding: [1, 2], key: strategyKey(input.strategy) });
  });

  it("a failing or malformed embedder is embed_failed", async () => {
    await expect(embedOne(async () => Promise.reject(new Error("down")), "x")).rejects.toMatchObject({
      code: "embed_failed",
    });
    await expect(embedOne(async () => [[Number.NaN]], "x")).rejects.toMatchObject({ code: "embed_failed" });
    await expect(embedOne(async () => [], "x")).rejects.toMatchObject({ code: "embed_failed" });
  });

  it("merge keeps identity and counters, takes new wording, keeps prose the new put omitted", async () => {
    const first = newRecord(
      await prepareStrategy({ ...input, correction: "c1", tags: ["x"] }),
      "id1",
      "2026-01-01T00:00:00.000Z",
    );
    const merged = mergeRecord(
      { ...first, uses: 4, successes: 3 },
      await prepareStrategy({ ...input, problem: "p2", confidence: 3, tags: ["y"] }),
      "2026-01-02T00:00:00.000Z",
    );
    expect(merged).toMatchObject({
      id: "id1",
      problem: "p2",
      confidence: 3,
      correction: "c1",
      uses: 4,
      successes: 3,
      tags: ["x", "y"],
    });
    expect(merged.createdAt).toBe("2026-01-01T00:00:00.000Z");
  });

  it("invalid input names fields, not values", async () => {
    await expect(prepareStrategy({ ...input, scope: "", strategy: "secret-value\u0000" })).rejects.toMatchObject({
      code: "invalid_input",
      fields: ["scope", "strategy"],
    });
    await prepareStrategy({ ...input, strategy: "secret-value\u0000" }).catch((error: Error) => {
      expect(error.message).not.toContain("secret-value");
    });
  });
});

describe("ids and cursors", () => {
  it("ids are time-ordered UUIDv7 strings", () => {
    const a = newId(1_000);
    const b = newId(2_000);
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(a < b).toBe(true);
  });

  it("cursors round-trip and foreign ones are invalid_input", () => {
    expect(decodeCursor(encodeCursor("abc"))).toBe("abc");
    expect(decodeCursor(undefined)).toBeUndefined();
    expect(() => decodeCursor("garbage")).toThrow(expect.objectContaining({ code: "invalid_input" }) as Error);
  });
});
