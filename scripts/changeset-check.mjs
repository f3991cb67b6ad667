// Every changeset must be one `changeset version` can apply: one that names an ignored package
// (@x/example, @x/bench) beside published ones, or a package that does not exist, stops the release
// for everyone. `changeset status` reads them all as `version` would, in about a second. It also
// diffs against the `main` branch, so a checkout without one gets a plain message, not a stack.
import { spawnSync } from "node:child_process";

const main = spawnSync("git", ["rev-parse", "--verify", "--quiet", "main"], { stdio: "ignore" });
if (main.status !== 0) {
  console.error("changesets: `changeset status` needs a local `main` branch (git fetch origin main:main)");
  process.exit(1);
}
const status = spawnSync("pnpm", ["exec", "changeset", "status"], { encoding: "utf8" });
if (status.status !== 0) {
  process.stderr.write(status.stdout + status.stderr);
  console.error("changesets: fix the changeset named above (one changeset per ignored package), see docs/RELEASING.md");
}
process.exit(status.status ?? 1);
