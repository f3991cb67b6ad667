import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from "node:fs";
import { join, relative } from "node:path";

/** The repository root: this file is tools/release-check/src/workspace-copy.ts. */
export const REPO_ROOT = join(import.meta.dirname, "../../..");

export interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

/** Every workspace folder with a package.json, relative to the root (packages/*, apps/*, tools/*, bench). */
function workspaceFolders(): string[] {
  return ["packages", "apps", "tools"]
    .flatMap((parent) => readdirSync(join(REPO_ROOT, parent)).map((name) => `${parent}/${name}`))
    .concat("bench")
    .filter((folder) => existsSync(join(REPO_ROOT, folder, "package.json")));
}

export function readManifest(dir: string): Manifest {
  return JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Manifest;
}

/**
 * A copy of the workspace for changesets to version and publish, so the real tree keeps its
 * changesets and versions: each publishable package whole (sources, the dist turbo built, README),
 * the private ones as their package.json only (changesets must see the packages its config ignores),
 * the root manifest, workspace file, lockfile (pnpm reads its own pin there) and .changeset. node_modules is the real one, by a link, for
 * changesets' changelog module and prettier. Each package's siblings are linked into its own
 * node_modules as `pnpm install` links them, because `pnpm publish` reads a `workspace:` range's
 * version there. A git repository on `main`, as changesets tags releases.
 */
export function copyWorkspace(into: string): void {
  mkdirSync(into, { recursive: true });
  for (const file of ["package.json", "pnpm-workspace.yaml", "pnpm-lock.yaml", "LICENSE", ".changeset"])
    cpSync(join(REPO_ROOT, file), join(into, file), { recursive: true });
  for (const folder of workspaceFolders()) {
    const from = join(REPO_ROOT, folder);
    if (readManifest(from).private === true) {
      cpSync(join(from, "package.json"), join(into, folder, "package.json"));
      continue;
    }
    const skipped = new Set(["node_modules", ".turbo", ".test-results"]);
    cpSync(from, join(into, folder), {
      recursive: true,
      filter: (path) =>
        !relative(from, path)
          .split("/")
          .some((part) => skipped.has(part)),
    });
  }
  symlinkSync(join(REPO_ROOT, "node_modules"), join(into, "node_modules"));
  linkSiblings(into);
  git(into, "init", "-q", "-b", "main");
  commit(into, "the workspace as it is");
}

function linkSiblings(root: string): void {
  const folders = new Map(workspaceFolders().map((folder) => [readManifest(join(REPO_ROOT, folder)).name, folder]));
  for (const [, pkg] of publishable(root)) {
    const ranges = { ...pkg.dependencies, ...pkg.devDependencies };
    for (const [name, range] of Object.entries(ranges)) {
      const sibling = folders.get(name);
      if (!range.startsWith("workspace:") || !sibling) continue;
      mkdirSync(join(pkg.dir, "node_modules", name, ".."), { recursive: true });
      symlinkSync(join(root, sibling), join(pkg.dir, "node_modules", name));
    }
  }
}

export function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "user.name=release-check", "-c", "user.email=release-check@localhost", ...args], {
    cwd,
    encoding: "utf8",
  });
}

export function commit(cwd: string, message: string): void {
  git(cwd, "add", "-A");
  git(cwd, "commit", "-q", "--no-verify", "-m", message);
}

/** The copy's publishable packages by name, read from disk after each versioning. */
export function publishable(root: string): Map<string, Manifest & { dir: string }> {
  const found = new Map<string, Manifest & { dir: string }>();
  for (const name of readdirSync(join(root, "packages"))) {
    const dir = join(root, "packages", name);
    const manifest = readManifest(dir);
    if (manifest.private !== true) found.set(manifest.name, { ...manifest, dir });
  }
  return found;
}

/** The packages that depend on `name` at run time (their `dependencies`, not dev or peer). */
export function dependentsOf(name: string, packages: ReadonlyMap<string, Manifest>): string[] {
  return [...packages.values()].filter((pkg) => name in (pkg.dependencies ?? {})).map((pkg) => pkg.name);
}
