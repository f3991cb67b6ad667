import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Manifest, PublishablePackage } from "./workspace";

/** The fields every published package carries, derived from the root package.json so they are written once. */
export function expectedMetadata(root: Manifest, pkg: PublishablePackage): Partial<Manifest> {
  const url = root.repository?.url;
  if (!url || !root.homepage || !root.license || !root.engines?.node)
    throw new Error("the root package.json must declare repository.url, homepage, license and engines.node");
  return {
    license: root.license,
    repository: { type: "git", url, directory: pkg.path },
    homepage: `${root.homepage}/tree/main/${pkg.path}#readme`,
    bugs: root.bugs,
    engines: { node: root.engines.node },
  };
}

/** What a tarball must hold besides the build: the package's own README, licence and changelog. */
export const REQUIRED_FILES = ["dist", "README.md", "LICENSE", "CHANGELOG.md"] as const;

/** Every way this package falls short of publishable, as sentences; empty when it is fine. */
export function metadataProblems(root: Manifest, rootLicense: string, pkg: PublishablePackage): string[] {
  const problems: string[] = [];
  const expected = expectedMetadata(root, pkg);
  for (const [field, value] of Object.entries(expected))
    if (JSON.stringify(pkg.manifest[field]) !== JSON.stringify(value))
      problems.push(`"${field}" is ${JSON.stringify(pkg.manifest[field])}, expected ${JSON.stringify(value)}`);
  if (!/^\d+\.\d+\.\d+(-[\w.]+)?$/.test(pkg.manifest.version))
    problems.push(`"version" ${pkg.manifest.version} is not semver`);
  const licenseFile = join(pkg.dir, "LICENSE");
  if (!existsSync(licenseFile)) problems.push("has no LICENSE file");
  else if (readFileSync(licenseFile, "utf8") !== rootLicense) problems.push("LICENSE differs from the root LICENSE");
  for (const file of REQUIRED_FILES)
    if (!(pkg.manifest.files ?? []).includes(file)) problems.push(`"files" does not list ${file}`);
  if (!existsSync(join(pkg.dir, "README.md"))) problems.push("has no README.md");
  problems.push(...exportProblems(pkg.manifest));
  problems.push(...sourceScriptProblems(pkg.manifest));
  return problems;
}

/**
 * Each command of a script that runs TypeScript through tsx resolves the workspace's `@x` packages to
 * their source: on a fresh clone nothing is built, so without the condition `pnpm bench` fails on a
 * missing `dist`.
 */
export function sourceScriptProblems(manifest: Manifest): string[] {
  const problems: string[] = [];
  for (const [name, script] of Object.entries(manifest.scripts ?? {}))
    for (const command of script.split("&&"))
      if (/\btsx\b/.test(command) && !command.includes("--conditions=@x/source"))
        problems.push(`script "${name}" runs tsx without --conditions=@x/source: ${command.trim()}`);
  return problems;
}

/** Each subpath resolves for ESM (and CJS, unless ESM-only) with its own types, and the workspace's source condition comes first. */
export function exportProblems(manifest: Manifest): string[] {
  const problems: string[] = [];
  for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
    if (subpath === "./package.json") continue;
    // A data subpath (a pattern or a file that is no module, such as a dataset) is a plain path: it has
    // no types and no source condition to check.
    if (typeof target === "string") {
      if (!/\.(json|jsonl|csv|txt)$|\/\*$/.test(target))
        problems.push(`exports["${subpath}"] is a bare path to a module: give it import/require conditions`);
      continue;
    }
    const conditions = target as Record<string, { types?: string; default?: string } | string>;
    if (Object.keys(conditions)[0] !== "@x/source")
      problems.push(`exports["${subpath}"] does not start with "@x/source"`);
    // A subpath may be ESM-only (one that loads an ESM-only peer such as vitest); the main entry may not.
    const wanted =
      subpath === "." || "require" in conditions ? (["import", "require"] as const) : (["import"] as const);
    for (const condition of wanted) {
      const entry = conditions[condition];
      if (typeof entry !== "object" || !entry.types || !entry.default)
        problems.push(`exports["${subpath}"].${condition} needs "types" and "default"`);
    }
  }
  if (!manifest.exports?.["."]) problems.push(`exports has no "."`);
  return problems;
}

/** The manifest with the expected fields set (placed after "license"), and the files list completed. */
export function withMetadata(root: Manifest, pkg: PublishablePackage): Manifest {
  const expected = expectedMetadata(root, pkg);
  const out: Manifest = { name: pkg.manifest.name, version: pkg.manifest.version };
  for (const [key, value] of Object.entries(pkg.manifest)) {
    if (key in expected) continue;
    out[key] = value;
    if (key === "description") Object.assign(out, expected);
  }
  if (!("license" in out)) Object.assign(out, expected);
  const files = out.files ?? [];
  out.files = [...files, ...REQUIRED_FILES.filter((file) => !files.includes(file))];
  return out;
}
