// Packs the package in the current directory the way `pnpm publish` would, then checks the
// tarball with publint (package.json / exports correctness) and arethetypeswrong (types resolve
// for ESM and CJS consumers). Run from a package's `lint` script after `build`.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
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
  // An ESM-only subpath (no `require` condition, e.g. one that loads vitest) is checked by publint and
  // by the consumer test's ESM import; attw's node16 profile would report its CJS side as missing.
  const { exports = {} } = JSON.parse(readFileSync("package.json", "utf8"));
  const esmOnly = Object.entries(exports)
    .filter(([subpath, target]) => subpath !== "./package.json" && typeof target === "object" && !("require" in target))
    .map(([subpath]) => subpath);
  const exclude = esmOnly.length > 0 ? ["--exclude-entrypoints", ...esmOnly] : [];
  execFileSync("attw", [tarball, "--profile", "node16", "--format", "table-flipped", ...exclude], { stdio: "inherit" });
} finally {
  rmSync(out, { recursive: true, force: true });
}
