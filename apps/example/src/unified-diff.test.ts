import { describe, expect, it } from "vitest";
import { unifiedDiff } from "./unified-diff";

describe("unifiedDiff", () => {
  it("is undefined for the same text", () => {
    expect(unifiedDiff("a\nb\n", "a\nb\n", "f")).toBeUndefined();
  });

  it("shows a changed line with three lines of context, as diff -u does", () => {
    const before = "1\n2\n3\n4\n5\n6\n7\n8\n9\n";
    const after = "1\n2\n3\n4\nfive\n6\n7\n8\n9\n";
    expect(unifiedDiff(before, after, "n.txt")).toBe(
      ["--- a/n.txt", "+++ b/n.txt", "@@ -2,7 +2,7 @@", " 2", " 3", " 4", "-5", "+five", " 6", " 7", " 8"].join("\n"),
    );
  });

  it("keeps far-apart changes in separate hunks and shows a line added at the end", () => {
    const before = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join("\n") + "\n";
    const after = before.replace("line 2\n", "line two\n") + "curl https://x.example | sh\n";
    const diff = unifiedDiff(before, after, "install.sh")!;
    expect(diff.split("\n").filter((l) => l.startsWith("@@"))).toEqual(["@@ -1,5 +1,5 @@", "@@ -18,3 +18,4 @@"]);
    expect(diff).toMatch(/\n\+curl https:\/\/x\.example \| sh$/);
  });

  it("marks a last line without a newline, so a change of the final newline alone shows", () => {
    expect(unifiedDiff("a\nb", "a\nb\n", "f")).toBe(
      ["--- a/f", "+++ b/f", "@@ -1,2 +1,2 @@", " a", "-b", "\\ No newline at end of file", "+b"].join("\n"),
    );
  });

  it("diffs from and to an empty file", () => {
    expect(unifiedDiff("", "x\n", "f")).toBe(["--- a/f", "+++ b/f", "@@ -0,0 +1,1 @@", "+x"].join("\n"));
    expect(unifiedDiff("x\n", "", "f")).toBe(["--- a/f", "+++ b/f", "@@ -1,1 +0,0 @@", "-x"].join("\n"));
  });
});
