// Root `pnpm bench`: every package's own `bench` script (one at a time, so they do not compete for
// the two cores), then the cross-library bench in bench/. Extra arguments go to the latter
// (e.g. `pnpm bench --scale=0.25 --only=floor,ours`).
import { spawnSync } from "node:child_process";

const pnpm = (args) => spawnSync("pnpm", args, { stdio: "inherit" }).status ?? 1;

const packages = pnpm(["--filter", "./packages/**", "--workspace-concurrency=1", "--no-bail", "--if-present", "run", "bench"]);
const bench = pnpm(["--filter", "@x/bench", "run", "bench", ...process.argv.slice(2)]);
process.exit(packages !== 0 || bench !== 0 ? 1 : 0);
