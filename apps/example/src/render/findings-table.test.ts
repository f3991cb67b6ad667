import { describe, expect, it } from "vitest";
import type { FindingRow } from "./events";
import { findingsTable } from "./findings-table";

const row = (id: string, extra: Partial<FindingRow> = {}): FindingRow => ({
  id,
  location: "src/a.ts:3",
  claim: "the loop reads one past the end of the array, so the sum is NaN for every input",
  severity: "high",
  score: 84,
  foundBy: ["correctness"],
  confirmedBy: ["security"],
  disputedBy: [],
  reported: true,
  ...extra,
});

describe("findingsTable", () => {
  it("draws one row per finding: who found, confirmed and disputed it, its score and outcome", () => {
    const lines = findingsTable([
      row("F1"),
      row("F2", {
        claim: "t shadows a global",
        score: 20,
        confirmedBy: [],
        disputedBy: [{ reviewer: "security", reason: "no global t" }],
        reported: false,
      }),
    ]).split("\n");
    expect(lines[1]).toMatch(
      /^│ id │ location {3}│ claim +│ found by +│ confirmed by │ disputed by │ score │ outcome +│$/,
    );
    expect(lines[3]).toBe(
      "│ F1 │ src/a.ts:3 │ the loop reads one past the end of the array, so the su… │ " +
        "correctness │ security     │ —           │    84 │ reported │",
    );
    expect(lines[4]).toMatch(
      /^│ F2 │ src\/a\.ts:3 │ t shadows a global +│ correctness │ — +│ security +│ +20 │ dropped {2}│$/,
    );
  });

  it("cuts the claims shorter to fit a terminal, then falls back to one line per finding", () => {
    const wide = findingsTable([row("F1")]);
    const width = wide.split("\n")[0]!.length;
    const fitted = findingsTable([row("F1")], width - 10).split("\n");
    expect(fitted[0]!.length).toBeLessThanOrEqual(width - 10);
    expect(fitted[3]).toContain("│ the loop reads one past the end of the … │");
    const narrow = findingsTable([row("F1")], 60);
    expect(narrow.split("\n")).toHaveLength(1);
    expect(narrow).toMatch(/^F1 src\/a\.ts:3 reported \(84\): the loop reads/);
    expect(narrow.length).toBeLessThanOrEqual(60);
  });

  it("keeps a model's control characters off the terminal", () => {
    const table = findingsTable([row("F1", { claim: "bad\x1b[2Jclaim", location: "a.ts:1\x07" })]);
    expect(table).toContain("│ bad\ufffd[2Jclaim │");
    expect(table).not.toContain("\x1b");
    expect(table).not.toContain("\x07");
  });
});
