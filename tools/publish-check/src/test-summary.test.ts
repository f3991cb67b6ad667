import { describe, expect, it } from "vitest";
import { summarizeReports } from "../../../scripts/test-summary.mjs";

const report = (overrides: Partial<Parameters<typeof summarizeReports>[0][number]>) => ({
  numPassedTests: 0,
  numFailedTests: 0,
  numPendingTests: 0,
  testResults: [],
  ...overrides,
});

describe("summarizeReports", () => {
  it("counts a test file that failed to load as a failure, and names it", () => {
    const summary = summarizeReports([
      report({
        numPassedTests: 948,
        testResults: [{ name: "/a/ok.test.ts", status: "passed", assertionResults: [{}] }],
      }),
      report({
        testResults: [
          { name: "/b/broken.test.ts", status: "failed", message: "Cannot find module", assertionResults: [] },
          { name: "/b/also-broken.test.ts", status: "failed", assertionResults: [] },
        ],
      }),
    ]);
    expect(summary.ok).toBe(false);
    expect(summary.brokenFiles).toEqual(["/b/broken.test.ts", "/b/also-broken.test.ts"]);
    expect(summary.line).toBe("Tests: 948 passed, 2 failed (+ 2 test files failed to load), 0 skipped");
  });

  it("is ok only with passing tests and no failure of either kind", () => {
    expect(summarizeReports([report({ numPassedTests: 3, numPendingTests: 1, numTodoTests: 1 })])).toMatchObject({
      ok: true,
      line: "Tests: 3 passed, 0 failed, 2 skipped",
    });
    expect(summarizeReports([report({ numPassedTests: 3, numFailedTests: 1 })]).ok).toBe(false);
    expect(summarizeReports([]).ok).toBe(false);
  });
});
