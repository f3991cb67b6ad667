import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { HELP } from "../src/commands/help";
import { REPO_ROOT } from "./cli-helpers";

/** Every README.md of the repository (dependencies aside) and every page under docs/. */
function docs(): Array<{ name: string; text: string }> {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === "node_modules" || entry.name.startsWith(".")) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name === "README.md" || (path.includes(`${REPO_ROOT}docs/`) && entry.name.endsWith(".md")))
        found.push(path);
    }
  };
  walk(REPO_ROOT);
  return found.map((path) => ({ name: relative(REPO_ROOT, path), text: readFileSync(path, "utf8") }));
}

/**
 * What `npx` is asked to run: in a command (a line, a code span or a quoted string that starts with
 * `npx`; prose that only mentions npx is not one) or in a spawn's argument list.
 */
function npxTargets(text: string): string[] {
  const targets: string[] = [];
  for (const match of text.matchAll(/(?:^|[`"'$]\s*)npx(?:\s+-[-\w]+)*\s+([^\s"'`]+)/gm)) targets.push(match[1]!);
  for (const match of text.matchAll(/command:\s*"npx",\s*args:\s*\[\s*(?:"-[-\w]+",\s*)*"([^"]+)"/g))
    targets.push(match[1]!);
  return targets;
}

/** A scoped package at an exact version: `@scope/name@1.2.3`. */
const EXACT_PACKAGE = /^@[\w.-]+\/[\w.-]+@\d[\w.-]*$/;

describe("spawned MCP servers name their exact package", () => {
  it("in the CLI's help", () => {
    const targets = Object.values(HELP).flatMap((text) => npxTargets(text.replace(/\n\s+/g, " ")));
    expect(targets.length).toBeGreaterThan(0);
    for (const target of targets) expect(target).toMatch(EXACT_PACKAGE);
  });

  it("in every README and doc page", () => {
    const offending = docs().flatMap(({ name, text }) =>
      npxTargets(text)
        .filter((target) => !EXACT_PACKAGE.test(target))
        .map((target) => `${name}: npx ${target}`),
    );
    expect(offending).toEqual([]);
  });
});
