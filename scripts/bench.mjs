// Root `pnpm bench`: every package's own `bench` script (one at a time, so they do not compete for
// the two cores), then the cross-library bench in bench/. The latter measures our packages from
// their built `dist` (as the peers run from published JS), so they are built first. Extra arguments
// go to the cross-library bench (e.g. `pnpm bench --quick`, `--only=floor,ours`, `--profile=ours`).
import { spawnSync } from "node:child_process";

const quick = process.argv.includes("--quick");
/**
 * `--quick` shortens every bench, not only the cross-library one: the packages' benches read their
 * sizes from these (the stores at 1k and 10k records in one scope, no 100k or 1M).
 */
const quickSizes = {
  STRATEGY_BENCH_LAYOUTS: "1000x1,10000x1",
  BENCH_TASKS: "200",
  BENCH_ROUNDS: "1",
  BENCH_TURNS: "60",
  BENCH_RUNS: "40",
};
const env = quick ? { ...quickSizes, ...process.env } : process.env;
const run = (cmd, args) => spawnSync(cmd, args, { stdio: "inherit", env }).status ?? 1;

const packages = run("pnpm", [
  "--filter",
  "./packages/**",
  "--workspace-concurrency=1",
  "--no-bail",
  "--if-present",
  "run",
  "bench",
]);
const build = run("pnpm", ["exec", "turbo", "run", "build", "--filter=@x/bench^...", "--output-logs=errors-only"]);
const bench = build === 0 ? run("pnpm", ["--filter", "@x/bench", "run", "bench", ...process.argv.slice(2)]) : 1;
if (build !== 0) console.error("bench: building the @x packages failed; the cross-library bench did not run");
process.exit(packages !== 0 || bench !== 0 ? 1 : 0);
