import { describe, expect, it } from "vitest";
import { mergeFindings } from "./merge";
import { scoreFinding } from "./score";
import { finding } from "../test/harness";

const cluster = (...confidences: number[]) =>
  mergeFindings(
    confidences.map((c, i) => ({
      reviewer: `r${i}`,
      reviewerIndex: i,
      index: 0,
      finding: finding("a.ts", 3, "bug", c),
    })),
    () => true,
  )[0]!;

describe("scoring", () => {
  it("one finder: the score is its confidence", () => {
    expect(scoreFinding(cluster(0.7), [])).toMatchObject({ score: 70, support: ["r0"], disputedBy: [] });
  });

  it("independent finders compound; a confirmation counts like a finder at 0.6", () => {
    expect(scoreFinding(cluster(0.6, 0.6), []).score).toBe(84);
    const confirmed = scoreFinding(cluster(0.5), [{ reviewer: "x", verdict: "confirm", reason: "", round: 1 }]);
    expect(confirmed.score).toBe(80);
    expect(confirmed.support).toEqual(["r0", "x"]);
  });

  it("disputes scale the score by the backers' share; a finder who withdraws no longer backs it", () => {
    const disputed = scoreFinding(cluster(0.9), [
      { reviewer: "x", verdict: "dispute", reason: "handled", round: 1 },
      { reviewer: "y", verdict: "dispute", reason: "handled", round: 1 },
    ]);
    expect(disputed.score).toBe(30);
    const withdrawn = scoreFinding(cluster(0.9), [
      { reviewer: "r0", verdict: "dispute", reason: "I was wrong", round: 2 },
    ]);
    expect(withdrawn).toMatchObject({ score: 0, support: [], disputedBy: ["r0"] });
  });

  it("a later stance replaces an earlier one", () => {
    const changed = scoreFinding(cluster(0.8), [
      { reviewer: "x", verdict: "dispute", reason: "", round: 1 },
      { reviewer: "x", verdict: "confirm", reason: "on a second look, yes", round: 2 },
    ]);
    expect(changed.disputedBy).toEqual([]);
    expect(changed.support).toEqual(["r0", "x"]);
  });
});
