import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root: this file is tools/publish-check/src/workspace.ts. */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");

/** The fields of a package.json the checks read. */
export interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  license?: string;
  repository?: { type?: string; url?: string; directory?: string };
  homepage?: string;
  bugs?: { url?: string } | string;
  engines?: Record<string, string>;
  files?: string[];
  exports?: Record<string, unknown>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  /** The npm scripts; `sourceScriptProblems` reads them. */
  scripts?: Record<string, string>;
  [field: string]: unknown;
}

/** One package a user can install: its folder, its path from the repository root, its manifest. */
export interface PublishablePackage {
  dir: string;
  /** e.g. `packages/runner`, the `repository.directory` it must declare. */
  path: string;
  manifest: Manifest;
}

export function readManifest(dir: string): Manifest {
  return JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Manifest;
}

/** Every non-private package under packages/, found on disk, so a new package is checked without an edit here. */
export function publishablePackages(root = REPO_ROOT): PublishablePackage[] {
  const parent = join(root, "packages");
  return readdirSync(parent, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(parent, entry.name, "package.json")))
    .map((entry) => {
      const dir = join(parent, entry.name);
      return { dir, path: `packages/${entry.name}`, manifest: readManifest(dir) };
    })
    .filter((pkg) => pkg.manifest.private !== true)
    .sort((a, b) => a.path.localeCompare(b.path));
}
