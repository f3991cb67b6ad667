// The one test command: the formatter and changeset checks, then typecheck, lint (incl. publint/attw
// on packed tarballs) and every package's tests through turbo, then the packed-tarball consumer test
// and the release round trip through a loopback registry (after turbo, when every package is built),
// then one summary line summed from vitest's JSON reports.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { summarizeReports } from "./test-summary.mjs";

const workspaces = ["packages", "apps", "tools"]
  .flatMap((dir) => (existsSync(dir) ? readdirSync(dir).map((name) => join(dir, name)) : []))
  .concat("bench");
const reportsDir = (ws) => join(ws, ".test-results");
const reportsOf = (ws) =>
  existsSync(reportsDir(ws)) ? readdirSync(reportsDir(ws)).filter((f) => f.endsWith(".json")) : [];
for (const ws of workspaces) for (const file of reportsOf(ws)) rmSync(join(reportsDir(ws), file), { force: true });

const format = spawnSync("pnpm", ["exec", "prettier", "--check", "--log-level=warn", "."], { stdio: "inherit" });
if (format.status !== 0) console.error("format: run `pnpm format` (prettier --write .) and commit the result");
// Prettier leaves long strings and comments whole; this finds them everywhere (a package's lint
// checks only its own folder, so the bench and the scripts are checked here).
const width = spawnSync("node", ["scripts/line-width.mjs", "--all"], { stdio: "inherit" });
const changesets = spawnSync("node", ["scripts/changeset-check.mjs"], { stdio: "inherit" });

const args = process.argv.slice(2);
const run = spawnSync(
  "pnpm",
  ["exec", "turbo", "run", "typecheck", "lint", "test", "--concurrency=2", "--continue", ...args],
  { stdio: "inherit" },
);
// Packs every package and installs the tarballs in a project outside the workspace, then versions and
// publishes them to Verdaccio on loopback and installs them from there (both need the builds turbo
// just made, so they run after it). Skipped when turbo was pointed at a subset with --filter.
const afterTurbo = (name, script) =>
  args.length === 0 ? spawnSync("pnpm", ["--filter", name, script], { stdio: "inherit" }) : { status: 0 };
const packed = afterTurbo("@x/publish-check", "test:packed");
const registry = afterTurbo("@x/release-check", "test:registry");

const tested = workspaces.filter((ws) => reportsOf(ws).length > 0);
const summary = summarizeReports(
  tested.flatMap((ws) => reportsOf(ws).map((file) => JSON.parse(readFileSync(join(reportsDir(ws), file), "utf8")))),
);
console.log(`\n${tested.length} workspaces tested`);
for (const file of summary.brokenFiles) console.log(`failed to load: ${file}`);
console.log(summary.line);
const status = [format.status, width.status, changesets.status, run.status, packed.status, registry.status].find(
  (s) => s !== 0,
);
process.exit(status !== undefined ? (status ?? 1) : summary.ok ? 0 : 1);
