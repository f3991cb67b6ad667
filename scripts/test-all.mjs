// The one test command: the formatter check, then typecheck, lint (incl. publint/attw on packed
// tarballs) and every package's tests through turbo, then one summary line summed from vitest's JSON
// reports.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";

const workspaces = ["packages", "apps"]
  .flatMap((dir) => (existsSync(dir) ? readdirSync(dir).map((name) => join(dir, name)) : []))
  .concat("bench");
const reportOf = (ws) => join(ws, ".test-results", "vitest.json");
for (const ws of workspaces) rmSync(reportOf(ws), { force: true });

const format = spawnSync("pnpm", ["exec", "prettier", "--check", "--log-level=warn", "."], { stdio: "inherit" });
if (format.status !== 0) console.error("format: run `pnpm format` (prettier --write .) and commit the result");

const run = spawnSync(
  "pnpm",
  ["exec", "turbo", "run", "typecheck", "lint", "test", "--concurrency=2", "--continue", ...process.argv.slice(2)],
  {
    stdio: "inherit",
  },
);

let passed = 0;
let failed = 0;
let skipped = 0;
let reports = 0;
for (const ws of workspaces.filter((w) => existsSync(reportOf(w)))) {
  const report = JSON.parse(readFileSync(reportOf(ws), "utf8"));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + (report.numTodoTests ?? 0);
  reports += 1;
}
console.log(`\n${reports} packages tested`);
console.log(`Tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
const status = format.status !== 0 ? 1 : (run.status ?? 1);
process.exit(status !== 0 ? status : failed > 0 || passed === 0 ? 1 : 0);
