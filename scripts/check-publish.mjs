// Packs the package in the current directory the way `pnpm publish` would, then checks the
// tarball with publint (package.json / exports correctness) and arethetypeswrong (types resolve
// for ESM and CJS consumers). Run from a package's `lint` script after `build`.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const out = mkdtempSync(join(tmpdir(), "x-pack-"));
try {
  execFileSync("pnpm", ["pack", "--pack-destination", out], { stdio: ["ignore", "ignore", "inherit"] });
  const tarball = join(
    out,
    readdirSync(out).find((f) => f.endsWith(".tgz")),
  );
  execFileSync("publint", ["run", tarball, "--strict"], { stdio: "inherit" });
  execFileSync("attw", [tarball, "--profile", "node16", "--format", "table-flipped"], { stdio: "inherit" });
} finally {
  rmSync(out, { recursive: true, force: true });
}
