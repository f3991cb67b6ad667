#!/usr/bin/env bash
# Creates a publishable workspace package skeleton: scripts/scaffold.sh <dir> "<description>"
set -euo pipefail
dir=packages/$1; name=@x/$1; desc=$2
mkdir -p "$dir/src"
cat > "$dir/package.json" <<JSON
{
  "name": "$name",
  "version": "0.0.0",
  "description": "$desc",
  "license": "MIT",
  "type": "module",
  "sideEffects": false,
  "engines": { "node": ">=20.19" },
  "main": "./dist/index.cjs",
  "module": "./dist/index.js",
  "types": "./dist/index.d.ts",
  "exports": {
    ".": {
      "@x/source": "./src/index.ts",
      "import": { "types": "./dist/index.d.ts", "default": "./dist/index.js" },
      "require": { "types": "./dist/index.d.cts", "default": "./dist/index.cjs" }
    },
    "./package.json": "./package.json"
  },
  "files": ["dist", "src", "!src/**/*.test.ts", "README.md"],
  "scripts": {
    "build": "tsup",
    "typecheck": "tsc --noEmit",
    "lint": "eslint src && node ../../scripts/check-publish.mjs && node ../../scripts/api-report.mjs && node ../../scripts/line-width.mjs",
    "test": "vitest run"
  },
  "dependencies": {},
  "devDependencies": {}
}
JSON
cat > "$dir/tsconfig.json" <<JSON
{ "extends": "../../tsconfig.base.json", "include": ["src", "test", "*.config.ts"] }
JSON
cat > "$dir/tsup.config.ts" <<TS
import { packageBuild } from "../../tsup.shared.ts";

export default packageBuild(["src/index.ts"]);
TS
cat > "$dir/vitest.config.ts" <<TS
export { default } from "../../vitest.shared.ts";
TS
echo "export {};" > "$dir/src/index.ts"
echo "# $name" > "$dir/README.md"
# repository/homepage/bugs/engines/files and the LICENSE copy, as tools/publish-check expects them.
pnpm fix:metadata >/dev/null
printf -- '---\n"%s": minor\n---\n\nFirst release. %s\n' "$name" "$desc" > ".changeset/$1-first-release.md"
