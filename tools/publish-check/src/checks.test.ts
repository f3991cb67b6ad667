import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { dependencyProblems } from "./imports";
import { metadataProblems, withMetadata } from "./metadata";
import type { Manifest, PublishablePackage } from "./workspace";

const root: Manifest = {
  name: "root",
  version: "0.0.0",
  license: "MIT",
  repository: { type: "git", url: "git+https://example.test/x.git" },
  homepage: "https://example.test/x",
  bugs: { url: "https://example.test/x/issues" },
  engines: { node: ">=20.19" },
};

/** A package folder on disk with the given manifest and one source file. */
function fixture(manifest: Partial<Manifest>, source: string, license?: string): PublishablePackage {
  const dir = mkdtempSync(join(tmpdir(), "x-publish-check-"));
  mkdirSync(join(dir, "src"));
  writeFileSync(join(dir, "src", "index.ts"), source);
  writeFileSync(join(dir, "src", "index.test.ts"), 'import { it } from "vitest";\n');
  writeFileSync(join(dir, "README.md"), "# pkg\n");
  if (license !== undefined) writeFileSync(join(dir, "LICENSE"), license);
  return { dir, path: "packages/pkg", manifest: { name: "@x/pkg", version: "0.0.0", ...manifest } };
}

const exportsMap = {
  ".": {
    "@x/source": "./src/index.ts",
    import: { types: "./dist/index.d.ts", default: "./dist/index.js" },
    require: { types: "./dist/index.d.cts", default: "./dist/index.cjs" },
  },
};

describe("metadataProblems", () => {
  it("names each missing field, the missing LICENSE and the files a tarball lacks", () => {
    const problems = metadataProblems(root, "MIT License\n", fixture({ exports: exportsMap, files: ["dist"] }, ""));
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^"license"/),
        expect.stringMatching(/^"repository"/),
        expect.stringMatching(/^"homepage"/),
        expect.stringMatching(/^"bugs"/),
        expect.stringMatching(/^"engines"/),
        "has no LICENSE file",
        '"files" does not list LICENSE',
        '"files" does not list CHANGELOG.md',
      ]),
    );
  });

  it("is empty once withMetadata has filled the manifest and the licence is the root's", () => {
    const pkg = fixture({ exports: exportsMap, files: ["dist", "src"] }, "", "MIT License\n");
    expect(metadataProblems(root, "MIT License\n", { ...pkg, manifest: withMetadata(root, pkg) })).toEqual([]);
    expect(withMetadata(root, pkg).repository).toEqual({ ...root.repository, directory: "packages/pkg" });
  });

  it("refuses an export without CJS types or without the source condition first", () => {
    const pkg = fixture(
      { exports: { ".": { import: "./dist/index.js", require: { default: "./dist/index.cjs" } } } },
      "",
    );
    const problems = metadataProblems(root, "MIT License\n", { ...pkg, manifest: withMetadata(root, pkg) });
    expect(problems.sort()).toEqual([
      'exports["."] does not start with "@x/source"',
      'exports["."].import needs "types" and "default"',
      'exports["."].require needs "types" and "default"',
      "has no LICENSE file",
    ]);
  });
});

describe("dependencyProblems", () => {
  const source = [
    'import { z } from "zod";',
    'import type * as z4 from "zod/v4/core";',
    'import {\n  thing,\n} from "@scope/lib/sub";',
    'export { other } from "plain-lib";',
    'import { readFile } from "node:fs";',
    'import { join } from "path";',
    'import { local } from "./local";',
    'const lazy = () => import("lazy-lib");',
    '// prose mentioning import from "not a package" is not an import',
  ].join("\n");

  it("finds zod pinned in dependencies and imports nobody declared", () => {
    const pkg = fixture({ dependencies: { zod: "4.6.7", "plain-lib": "1.0.0" } }, source);
    expect(dependencyProblems(pkg).sort()).toEqual([
      "@scope/lib is imported but is neither a dependency nor a peer dependency",
      "lazy-lib is imported but is neither a dependency nor a peer dependency",
      'zod is imported but not in "peerDependencies"',
      'zod is in "dependencies": the user owns it, make it a peer',
      'zod needs an exact version in "devDependencies" to develop against',
    ]);
  });

  it("accepts zod as a ranged peer with a pinned dev copy, and reads test files as dev-only", () => {
    const pkg = fixture(
      {
        dependencies: { "plain-lib": "1.0.0", "lazy-lib": "1.0.0" },
        peerDependencies: { zod: "^3.25.0 || ^4.0.0", "@scope/lib": "^2.0.0" },
        devDependencies: { zod: "4.6.7" },
      },
      source,
    );
    expect(dependencyProblems(pkg)).toEqual([]);
    const exact = fixture({ ...pkg.manifest, peerDependencies: { zod: "4.6.7", "@scope/lib": "^2.0.0" } }, source);
    expect(dependencyProblems(exact)).toEqual(["peer zod@4.6.7 is not a range"]);
  });

  it("refuses a zod peer range that leaves out zod 3.25 (a zod 3 project would get ERESOLVE)", () => {
    const pkg = fixture({ peerDependencies: { zod: "^4.0.0" }, devDependencies: { zod: "4.6.7" } }, 'import "zod/v4";');
    expect(dependencyProblems(pkg)).toEqual([
      'peer zod@^4.0.0 should be "^3.25.0 || ^4.0.0" (the sources read zod/v4)',
    ]);
  });

  it("refuses pg without @types/pg beside it in dependencies (the user would meet TS7016)", () => {
    const source = 'import type { Pool } from "pg";';
    const dev = fixture({ dependencies: { pg: "8.23.1" }, devDependencies: { "@types/pg": "8.23.1" } }, source);
    expect(dependencyProblems(dev)).toEqual(["pg's types come from @types/pg: make it a dependency, as pg is"]);
    const shipped = fixture({ dependencies: { pg: "8.23.1", "@types/pg": "8.23.1" } }, source);
    expect(dependencyProblems(shipped)).toEqual([]);
  });
});
