// The contributor and user docs point only at what a clone has: every relative link in the root
// README, ARCHITECTURE.md, docs/*.md and the packages' READMEs resolves to a file inside the repository,
// and none names a folder beside it (the contributing guide once sent people to `../shared/…`).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { publishablePackages, REPO_ROOT } from "./workspace";

const docs = [
  join(REPO_ROOT, "README.md"),
  join(REPO_ROOT, "ARCHITECTURE.md"),
  ...readdirSync(join(REPO_ROOT, "docs"))
    .filter((file) => file.endsWith(".md"))
    .map((file) => join(REPO_ROOT, "docs", file)),
  ...publishablePackages().map((pkg) => join(pkg.dir, "README.md")),
];

/** Relative link targets of a markdown file (`[text](target)`), without their #fragment; web links left out. */
function relativeLinks(markdown: string): string[] {
  return [...markdown.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1]!)
    .filter((target) => !/^[a-z]+:/i.test(target) && !target.startsWith("#"))
    .map((target) => target.split("#")[0]!);
}

describe("the docs point only at what a clone has", () => {
  it.each(docs.map((file) => [relative(REPO_ROOT, file), file] as const))("%s", (_name, file) => {
    const markdown = readFileSync(file, "utf8");
    expect(markdown).not.toMatch(/\.\.\/shared\//);
    for (const target of relativeLinks(markdown)) {
      const path = resolve(dirname(file), target);
      expect(relative(REPO_ROOT, path), `${target} leaves the repository`).not.toMatch(/^\.\./);
      expect(existsSync(path), `${target} does not exist`).toBe(true);
    }
  });

  it("finds a broken link (the check can fail)", () => {
    expect(relativeLinks("see [the guide](../shared/TOOLCHAIN.md#pins) and [web](https://x.test)")).toEqual([
      "../shared/TOOLCHAIN.md",
    ]);
  });
});
