// Runs one of this folder's scripts in a new `node` process (from the runner's sources, as the
// tests do) and reads the JSON it prints: the seam a park or checkpoint crosses between processes.
import { execFileSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));

export function runChild<T>(script: string, args: readonly string[]): T {
  const out = execFileSync(
    process.execPath,
    ["--conditions=@x/source", "--import", "tsx", join(here, script), ...args],
    { cwd: join(here, ".."), encoding: "utf8" },
  );
  return JSON.parse(out) as T;
}
