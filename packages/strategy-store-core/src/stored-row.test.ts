import { describe, expect, it } from "vitest";
import { isStrategyStoreError } from "./errors";
import { recordFromRow } from "./stored-row";

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
