import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { PublishablePackage } from "./workspace";
import { REPO_ROOT } from "./workspace";

/**
 * What a user installs beside our packages: a zod 4 minor older than the workspace's pin (the peer
 * range must hold), the optional peers, the drivers and types the README snippets import.
 */
export const CONSUMER_DEPENDENCIES: Record<string, string> = {
  zod: "4.1.13",
  "@opentelemetry/api": "1.9.0",
  "@types/node": "20.19.43",
  "@types/pg": "8.23.1",
  "@electric-sql/pglite": "0.5.14",
  "@electric-sql/pglite-pgvector": "0.0.15",
  // PGlite's declarations name Emscripten's types without depending on them.
  "@types/emscripten": "1.41.6",
  vitest: "4.1.12",
  "fast-check": "4.11.0",
};

/** Packs each package as `pnpm publish` would (workspace: ranges become versions); returns name → tarball. */
export function packAll(packages: readonly PublishablePackage[], into: string): Map<string, string> {
  mkdirSync(into, { recursive: true });
  const tarballs = new Map<string, string>();
  for (const pkg of packages) {
    const before = new Set(readdirSync(into));
    execFileSync("pnpm", ["pack", "--pack-destination", into], { cwd: pkg.dir, stdio: ["ignore", "ignore", "pipe"] });
    const made = readdirSync(into).find((file) => file.endsWith(".tgz") && !before.has(file));
    if (!made) throw new Error(`pnpm pack made no tarball for ${pkg.manifest.name}`);
    tarballs.set(pkg.manifest.name, join(into, made));
  }
  return tarballs;
}

/**
 * A fresh npm project outside the workspace with every tarball installed. `overrides` make each
 * package's dependency on a sibling resolve to the tarball, never to the registry. Install scripts
 * are skipped: the one native addon (better-sqlite3) gets the binary the workspace already built for
 * this Node, because compiling it again would take minutes and test nothing of ours.
 */
export function installConsumer(dir: string, tarballs: ReadonlyMap<string, string>): void {
  const ours = Object.fromEntries([...tarballs].map(([name, file]) => [name, `file:${file}`]));
  const manifest = {
    name: "x-consumer",
    private: true,
    type: "module",
    dependencies: { ...ours, ...CONSUMER_DEPENDENCIES },
    overrides: ours,
  };
  writeFileSync(join(dir, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  execFileSync(
    "npm",
    ["install", "--ignore-scripts", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"],
    { cwd: dir, stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, npm_config_workspaces: "false" } },
  );
  copyNativeBuild(dir, "better-sqlite3", "build/Release/better_sqlite3.node");
}

function copyNativeBuild(dir: string, name: string, file: string): void {
  const target = join(dir, "node_modules", name);
  if (!existsSync(target)) return;
  const sqlitePackage = join(REPO_ROOT, "packages", "strategy-store-sqlite", "package.json");
  const built = join(createRequire(sqlitePackage).resolve(`${name}/package.json`), "..", file);
  mkdirSync(join(target, file, ".."), { recursive: true });
  copyFileSync(built, join(target, file));
}

/** One import path a package's exports map offers (`@x/runner`, `@x/runner/otel`, ...). */
export interface EntryPoint {
  specifier: string;
  /** The entry has a `require` condition; without one it is ESM-only. */
  cjs: boolean;
}

/** Module entries only: `./package.json` and data subpaths (a plain path, such as a dataset pattern) load no module. */
export function entryPoints(pkg: PublishablePackage): EntryPoint[] {
  return Object.entries(pkg.manifest.exports ?? {})
    .filter(([subpath, target]) => subpath !== "./package.json" && typeof target !== "string")
    .map(([subpath, conditions]) => ({
      specifier: subpath === "." ? pkg.manifest.name : `${pkg.manifest.name}/${subpath.slice(2)}`,
      cjs: typeof conditions === "object" && conditions !== null && "require" in conditions,
    }));
}

/** A strict tsconfig for one module resolution mode, over the given files; every installed @types package applies, as in a new project. */
export function strictTsconfig(resolution: "node16" | "bundler", files: readonly string[]): string {
  const compilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: false,
    target: "ES2022",
    // DOM: PGlite's and Emscripten's declarations name browser types (IDBDatabase, WebAssembly.*), as a PGlite user's project must.
    lib: ["ES2023", "DOM"],
    module: resolution === "node16" ? "node16" : "esnext",
    moduleResolution: resolution,
  };
  return `${JSON.stringify({ compilerOptions, files }, null, 2)}\n`;
}
