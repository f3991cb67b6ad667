import { readdirSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { join } from "node:path";
import type { PublishablePackage } from "./workspace";

/**
 * Libraries whose instance the user owns: their values cross our API (a zod schema into
 * `defineTool`, an OpenTelemetry tracer), so a package takes them as a peer with a range and pins
 * them only for its own development.
 */
export const USER_OWNED = ["zod", "@opentelemetry/api"] as const;

/**
 * The one zod peer range: the sources import `zod/v4` (lint enforces it), which zod 3.25 ships as
 * well, so a project on zod 3.25 installs without ERESOLVE.
 */
export const ZOD_PEER_RANGE = "^3.25.0 || ^4.0.0";

/**
 * Dependencies whose types live in DefinitelyTyped: when our published declarations name them, their
 * `@types` package must install with ours (a dependency), or the user meets TS7016 (or a silent `any`).
 */
export const TYPED_ELSEWHERE: Record<string, string> = { pg: "@types/pg", "better-sqlite3": "@types/better-sqlite3" };

/** `import … from "x"`, `export … from "x"`, `import "x"`, `import("x")`: bare specifiers only. */
const SPECIFIER =
  /(?:^\s*(?:import|export)\b[^;"']*?\bfrom\s*|^\s*import\s*|\bimport\s*\(\s*)["']((?:@[\w.-]+\/)?\w[\w.-]*(?:\/[^"'\s]*)?)["']/gm;

/** The packages the published sources import (test files excluded), by package name. */
export function importedPackages(pkg: PublishablePackage): Set<string> {
  const names = new Set<string>();
  for (const file of sourceFiles(join(pkg.dir, "src"))) {
    for (const match of readFileSync(file, "utf8").matchAll(SPECIFIER)) {
      const name = packageName(match[1]!);
      if (name !== pkg.manifest.name && !isBuiltin(name)) names.add(name);
    }
  }
  return names;
}

/** Imports a consumer would not get, and user-owned libraries not taken as a peer. */
export function dependencyProblems(pkg: PublishablePackage): string[] {
  const { dependencies = {}, peerDependencies = {}, devDependencies = {} } = pkg.manifest;
  const problems: string[] = [];
  for (const name of importedPackages(pkg)) {
    const owned = (USER_OWNED as readonly string[]).includes(name);
    if (owned) {
      if (name in dependencies) problems.push(`${name} is in "dependencies": the user owns it, make it a peer`);
      const range = peerDependencies[name];
      if (range === undefined) problems.push(`${name} is imported but not in "peerDependencies"`);
      else if (!/^(\^|>=)/.test(range)) problems.push(`peer ${name}@${range} is not a range`);
      else if (name === "zod" && range !== ZOD_PEER_RANGE)
        problems.push(`peer zod@${range} should be "${ZOD_PEER_RANGE}" (the sources read zod/v4)`);
      if (!/^\d/.test(devDependencies[name] ?? ""))
        problems.push(`${name} needs an exact version in "devDependencies" to develop against`);
    } else if (!(name in dependencies) && !(name in peerDependencies)) {
      problems.push(`${name} is imported but is neither a dependency nor a peer dependency`);
    }
    const types = TYPED_ELSEWHERE[name];
    if (types !== undefined && name in dependencies && !(types in dependencies))
      problems.push(`${name}'s types come from ${types}: make it a dependency, as ${name} is`);
  }
  return problems;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|tsx|mts|cts)$/.test(entry.name) && !/\.test(-d)?\.ts$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

function packageName(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0]!;
}

function isBuiltin(name: string): boolean {
  return name.startsWith("node:") || builtinModules.includes(name);
}
