import { describe, expect, it } from "vitest";
import { councilLines, reportedFindings, reviewerTurn } from "./council-lines";
import type { AppEvent, FindingRow } from "./events";

const finding = (id: string, extra: Partial<FindingRow>): FindingRow => ({
  id,
  location: "a.js:3",
  claim: "reads past the end",
  severity: "high",
  score: 90,
  foundBy: ["correctness"],
  confirmedBy: ["security"],
  disputedBy: [],
  reported: true,
  ...extra,
});

const event: Extract<AppEvent, { type: "council" }> = {
  type: "council",
  label: "review",
  status: "completed",
  stoppedBecause: "agreement",
  rounds: 2,
  threshold: 60,
  reviewers: [
    { name: "security", lens: "security", status: "completed", findings: 0, runs: 3, tokens: 900, costMicroUsd: 400 },
    { name: "correctness", status: "timeout", findings: 1, runs: 1, tokens: 300, costMicroUsd: 100 },
  ],
  findings: [
    finding("F1", {}),
    finding("F2", {
      location: "a.js:9",
      claim: "x is NaN",
      score: 0,
      confirmedBy: [],
      reported: false,
      disputedBy: [
        { reviewer: "correctness", reason: "I misread it" },
        { reviewer: "security", reason: "x defaults to 1" },
      ],
    }),
  ],
  modelCalls: 4,
  summary: {
    label: "review",
    status: "completed",
    turns: 4,
    tokens: 1200,
    tokensEstimated: true,
    costMicroUsd: 500,
    teacherShare: 0,
    strategiesUsed: 0,
    strategiesStored: 0,
  },
};

describe("council lines", () => {
  it("reads a reviewer's review and its critique as words; anything else is left as text", () => {
    const review = JSON.stringify({ findings: [{ location: { file: "a.js", line: 3 }, claim: "reads past the end" }] });
    expect(reviewerTurn("m", review)).toBe("m found 1 problem: a.js:3 reads past the end");
    expect(reviewerTurn("m", JSON.stringify({ findings: [] }))).toBe("m found 0 problems");
    const critique = JSON.stringify({
      verdicts: [
        { id: "F1", verdict: "confirm" },
        { id: "F2", verdict: "dispute" },
      ],
    });
    expect(reviewerTurn("m", critique)).toBe("m critique: F1 confirm, F2 dispute");
    expect(reviewerTurn("m", "I think it is fine")).toBeUndefined();
    expect(reviewerTurn("m", '{"answer": 1}')).toBeUndefined();
  });

  it("names each reviewer's part, the outcome, and who disputed or withdrew what", () => {
    const lines = councilLines(event);
    expect(lines.reviewers).toEqual([
      "security (lens: security): completed — 0 findings of its own, 3 runs, ~900 tokens, $0.000400",
      "correctness: timeout — 1 finding of its own, 1 run, ~300 tokens, $0.000100",
    ]);
    expect(lines.outcome).toBe(
      "— 1 reported, 1 dropped (score < 60) · 2 critique rounds, stopped on agreement (nothing contested) · " +
        "4 model calls, ~1200 tokens, $0.000500",
    );
    expect(lines.disputes).toEqual([
      "F2 correctness, its finder, withdrew it: I misread it",
      "F2 disputed by security: x defaults to 1",
    ]);
    expect(lines.table.split("\n")).toHaveLength(6);
  });

  it("answers with the reported findings only", () => {
    expect(reportedFindings(event)).toEqual([
      "a.js:3 [high] reads past the end (score 90; found by correctness; confirmed by security)",
    ]);
  });
});
