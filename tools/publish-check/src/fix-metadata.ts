// Writes the publish metadata every package under packages/ must carry (repository, homepage,
// bugs, license, engines, files) and copies the root LICENSE beside it: `pnpm fix:metadata`.
import { copyFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { withMetadata } from "./metadata";
import { publishablePackages, readManifest, REPO_ROOT } from "./workspace";

const root = readManifest(REPO_ROOT);
for (const pkg of publishablePackages()) {
  writeFileSync(join(pkg.dir, "package.json"), `${JSON.stringify(withMetadata(root, pkg), null, 2)}\n`);
  copyFileSync(join(REPO_ROOT, "LICENSE"), join(pkg.dir, "LICENSE"));
  console.log(`${pkg.manifest.name}: metadata and LICENSE written`);
}
