import { describe, expect, it } from "vitest";
import { locationMatcher, wordOverlap } from "./matcher";
import { mergeFindings, type RawFinding } from "./merge";
import { finding } from "../test/harness";

const raw = (reviewer: string, reviewerIndex: number, index: number, f = finding("a.ts", 1, "x")): RawFinding => ({
  reviewer,
  reviewerIndex,
  index,
  finding: f,
});

describe("merging findings", () => {
  const items = [
    raw("ana", 0, 0, finding("a.ts", 10, "null dereference of user when the session expired", 0.6, "medium")),
    raw("bo", 1, 0, finding("./a.ts", 11, "user can be null after the session expired: dereference", 0.9, "critical")),
    raw("bo", 1, 1, finding("a.ts", 12, "the log line leaks the password", 0.7)),
    raw("cy", 2, 0, finding("b.ts", 10, "null dereference of user when the session expired", 0.6)),
  ];

  it("joins the same problem across reviewers (file, nearby lines, shared words); keeps others apart", () => {
    const clusters = mergeFindings(items, locationMatcher());
    expect(clusters.map((c) => [c.id, c.members.map((m) => m.reviewer)])).toEqual([
      ["F1", ["bo", "ana"]],
      ["F2", ["bo"]],
      ["F3", ["cy"]],
    ]);
    // The most confident member speaks for the cluster; the worst severity wins.
    expect(clusters[0]!.lead.confidence).toBe(0.9);
    expect(clusters[0]!.severity).toBe("critical");
  });

  it("is deterministic: any input order gives the same clusters", () => {
    const once = JSON.stringify(mergeFindings(items, locationMatcher()));
    for (const order of [
      [3, 2, 1, 0],
      [1, 3, 0, 2],
      [2, 0, 3, 1],
    ])
      expect(
        JSON.stringify(
          mergeFindings(
            order.map((i) => items[i]!),
            locationMatcher(),
          ),
        ),
      ).toBe(once);
  });

  it("the host's matcher replaces the default", () => {
    const byFileOnly = mergeFindings(
      items,
      (a, b) => a.location.file.replace("./", "") === b.location.file.replace("./", ""),
    );
    expect(byFileOnly).toHaveLength(2);
    const never = mergeFindings(items, () => false);
    expect(never).toHaveLength(4);
  });

  it("the default matcher: same line is one problem; lines far apart or in other files are not", () => {
    const match = locationMatcher();
    expect(match(finding("a.ts", 5, "alpha"), finding("a.ts", 5, "omega"))).toBe(true);
    expect(
      match(
        finding("a.ts", 5, "the cache key ignores the tenant"),
        finding("a.ts", 9, "the cache key ignores the tenant"),
      ),
    ).toBe(false);
    expect(
      match(finding("a.ts", 5, "the cache key ignores the tenant"), finding("a.ts", 6, "unrelated typo in a comment")),
    ).toBe(false);
    expect(match(finding("A.ts", 5, "x"), finding("b.ts", 5, "x"))).toBe(false);
    expect(
      locationMatcher({ maxLineGap: 5 })(
        finding("a.ts", 5, "the cache key ignores the tenant"),
        finding("a.ts", 9, "cache key ignores tenant"),
      ),
    ).toBe(true);
    expect(wordOverlap("the cache key", "cache key")).toBe(1);
  });
});
