import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { dependencyProblems } from "./imports";
import { exportProblems, metadataProblems, sourceScriptProblems } from "./metadata";
import { publishablePackages, readManifest, REPO_ROOT } from "./workspace";

const root = readManifest(REPO_ROOT);
const rootLicense = readFileSync(join(REPO_ROOT, "LICENSE"), "utf8");
const packages = publishablePackages();

describe("every package under packages/", () => {
  it("is found on disk", () => {
    expect(packages.map((p) => p.path)).toContain("packages/runner");
  });

  it.each(packages.map((p) => [p.manifest.name, p] as const))(
    "%s carries the publish metadata and the licence (fix: pnpm fix:metadata)",
    (_name, pkg) => {
      expect(metadataProblems(root, rootLicense, pkg)).toEqual([]);
    },
  );

  it.each(packages.map((p) => [p.manifest.name, p] as const))(
    "%s declares what its sources import, with user-owned libraries as peers",
    (_name, pkg) => {
      expect(dependencyProblems(pkg)).toEqual([]);
    },
  );
});

describe("the root", () => {
  it("states the licence, MIT, in package.json, LICENSE and README", () => {
    expect(root.license).toBe("MIT");
    expect(rootLicense).toMatch(/^MIT License\n/);
    expect(readFileSync(join(REPO_ROOT, "README.md"), "utf8")).toMatch(/\bMIT\b.*LICENSE|LICENSE.*\bMIT\b/);
  });
});

describe("sourceScriptProblems", () => {
  const manifest = (bench: string) => ({ name: "@x/p", version: "0.0.0", scripts: { bench } });

  it("flags a tsx command that would load the packages' dist", () => {
    expect(sourceScriptProblems(manifest("tsx bench/a.ts"))).toEqual([
      'script "bench" runs tsx without --conditions=@x/source: tsx bench/a.ts',
    ]);
  });

  it("checks each command of a chain on its own", () => {
    const chain = "node --conditions=@x/source --import tsx bench/a.ts && node --import tsx bench/b.ts";
    expect(sourceScriptProblems(manifest(chain))).toHaveLength(1);
  });

  it("passes tsx run on the source condition, and scripts without tsx", () => {
    expect(sourceScriptProblems(manifest("tsx --conditions=@x/source bench/a.ts"))).toEqual([]);
    expect(sourceScriptProblems(manifest("vitest run"))).toEqual([]);
  });
});

describe("exportProblems", () => {
  const entry = { types: "./dist/index.d.ts", default: "./dist/index.js" };
  const main = { "@x/source": "./src/index.ts", import: entry, require: entry };
  const manifest = (extra: Record<string, unknown>) => ({
    name: "@x/p",
    version: "0.0.0",
    exports: { ".": main, ...extra },
  });

  it("takes a data subpath as a plain path: a pattern or a data file", () => {
    expect(exportProblems(manifest({ "./datasets/*": "./datasets/*", "./cases.json": "./cases.json" }))).toEqual([]);
  });

  it("flags a module exported as a bare path, with no types", () => {
    expect(exportProblems(manifest({ "./extra": "./dist/extra.js" }))).toEqual([
      'exports["./extra"] is a bare path to a module: give it import/require conditions',
    ]);
  });
});
