import { describe, expect, it } from "vitest";
import { isStrategyStoreError } from "./errors";
import { rankedFieldsFromRow, recordFromRow } from "./stored-row";

const row = {
  id: "s1",
  scope: "tenant-a",
  problem: "flaky date test",
  strategy: "pin the clock",
  correction: null,
  next_step: "inject a clock",
  confidence: "2",
  source: "teacher",
  tags: '["tests"]',
  embedding: null,
  created_at: new Date("2026-11-30T10:00:00Z"),
  updated_at: "2026-11-30T11:00:00.000Z",
  uses: "3",
  successes: 2,
};

describe("recordFromRow", () => {
  it("coerces each driver's value types into one record shape", () => {
    expect(recordFromRow(row)).toEqual({
      id: "s1",
      scope: "tenant-a",
      problem: "flaky date test",
      strategy: "pin the clock",
      nextStep: "inject a clock",
      confidence: 2,
      source: "teacher",
      tags: ["tests"],
      createdAt: "2026-11-30T10:00:00.000Z",
      updatedAt: "2026-11-30T11:00:00.000Z",
      uses: 3,
      successes: 2,
    });
    expect(recordFromRow({ ...row, tags: ["a"], embedding: ["0.5", 1] })).toMatchObject({
      tags: ["a"],
      embedding: [0.5, 1],
    });
  });

  it.each([
    ["a confidence outside 0-3", { confidence: 7 }, "confidence"],
    ["tags that are not a JSON array", { tags: "{oops" }, "tags"],
    ["a timestamp that does not parse", { created_at: "yesterday" }, "created_at"],
    ["a negative counter", { uses: -1 }, "uses"],
  ])("refuses %s with a backend error naming the field, not the data", (_label, patch, field) => {
    try {
      recordFromRow({ ...row, ...patch, problem: "SECRET-TENANT-TEXT" });
      expect.unreachable();
    } catch (error) {
      expect(isStrategyStoreError(error, "backend")).toBe(true);
      expect((error as Error).message).toContain(field);
      expect((error as Error).message).not.toContain("SECRET-TENANT-TEXT");
    }
  });
});

describe("rankedFieldsFromRow", () => {
  const canonical = { id: "s1", confidence: 2, updated_at: "2026-11-30T11:00:00.000Z", uses: 3, successes: 2 };
  const fields = { id: "s1", confidence: 2, updatedAt: "2026-11-30T11:00:00.000Z", uses: 3, successes: 2 };

  it("reads a row of canonical values, or of any driver's types, into the same fields", () => {
    expect(rankedFieldsFromRow(canonical)).toEqual(fields);
    expect(rankedFieldsFromRow({ ...canonical, confidence: "2", uses: "3" })).toEqual(fields);
    expect(rankedFieldsFromRow({ ...canonical, updated_at: new Date("2026-11-30T11:00:00Z") })).toEqual(fields);
    expect(rankedFieldsFromRow({ ...canonical, updated_at: "2026-11-30T11:00:00Z" })).toEqual(fields);
    // Well-formed but no such day: the schema's reading (the date it rolls over to), not the text as stored.
    const rolled = new Date("2026-02-30T11:00:00.000Z").toISOString();
    expect(rankedFieldsFromRow({ ...canonical, updated_at: "2026-02-30T11:00:00.000Z" }).updatedAt).toBe(rolled);
  });

  it("rejects what the schema rejects, however well-formed it looks", () => {
    for (const bad of [
      { ...canonical, updated_at: "not a time" },
      { ...canonical, uses: -1 },
      { ...canonical, successes: 1.5 },
      { ...canonical, confidence: Number.NaN },
      { ...canonical, id: 7 },
    ]) {
      let error: unknown;
      try {
        rankedFieldsFromRow(bad);
      } catch (caught) {
        error = caught;
      }
      expect(isStrategyStoreError(error) && error.code === "backend").toBe(true);
    }
  });
});
