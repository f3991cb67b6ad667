// Sums vitest JSON reports into the one summary line `pnpm test` ends with. A test file that failed
// to load (a syntax error, a missing import, a throwing top-level await) has no test results of its
// own, so it is counted apart and fails the run like a failed test.

/**
 * @typedef {{ name: string; status: string; message?: string; assertionResults: unknown[] }} FileResult
 * @typedef {{
 *   numPassedTests: number;
 *   numFailedTests: number;
 *   numPendingTests: number;
 *   numTodoTests?: number;
 *   testResults: FileResult[];
 * }} VitestReport
 */

/**
 * @param {VitestReport[]} reports
 * @returns {{ passed: number; failed: number; skipped: number; brokenFiles: string[]; ok: boolean; line: string }}
 */
export function summarizeReports(reports) {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  /** @type {string[]} */
  const brokenFiles = [];
  for (const report of reports) {
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    skipped += report.numPendingTests + (report.numTodoTests ?? 0);
    for (const file of report.testResults)
      if (file.status === "failed" && file.assertionResults.length === 0) brokenFiles.push(file.name);
  }
  const files =
    brokenFiles.length === 0
      ? ""
      : ` (+ ${brokenFiles.length} test file${brokenFiles.length === 1 ? "" : "s"} failed to load)`;
  const line = `Tests: ${passed} passed, ${failed + brokenFiles.length} failed${files}, ${skipped} skipped`;
  return { passed, failed, skipped, brokenFiles, ok: failed === 0 && brokenFiles.length === 0 && passed > 0, line };
}
