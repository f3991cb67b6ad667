import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "../../..");
const config = join(root, ".dependency-cruiser.cjs");
const depcruise = join(here, "../node_modules/.bin/depcruise");
const planted = mkdtempSync(join(tmpdir(), "x-import-rules-"));
afterAll(() => rmSync(planted, { recursive: true, force: true }));

/** Runs the repository's rules over `paths` from `cwd`; the exit status and what was reported. */
function cruise(cwd: string, paths: string[]): { status: number | null; out: string } {
  const run = spawnSync(depcruise, [...paths, "--config", config, "--output-type", "err"], { cwd, encoding: "utf8" });
  return { status: run.status, out: `${run.stdout}${run.stderr}` };
}

/** A tree laid out like the repository's, holding only `files`. */
function tree(name: string, files: Record<string, string>): string {
  const dir = join(planted, name);
  writeFile(join(dir, "tsconfig.base.json"), JSON.stringify({ compilerOptions: { module: "esnext" } }));
  for (const [path, text] of Object.entries(files)) writeFile(join(dir, path), text);
  return dir;
}

function writeFile(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

describe("the repository's import rules", () => {
  it("hold on the repository: no cycle anywhere, the runner's layers one way", () => {
    const { status, out } = cruise(root, ["packages", "apps", "bench", "tools"]);
    expect(out).toContain("no dependency violations found");
    expect(status).toBe(0);
  }, 60_000);

  it("fail on a planted upward import: the runner's vocabulary importing its loop", () => {
    const dir = tree("upward", {
      "packages/runner/src/loop/act.ts": "export const act = 1;\n",
      "packages/runner/src/vocabulary/word.ts": 'import { act } from "../loop/act";\nexport const word = act;\n',
    });
    const { status, out } = cruise(dir, ["packages"]);
    expect(status).not.toBe(0);
    expect(out).toContain("runner-vocabulary-imports-only-above");
  });

  it("fail on a planted runtime cycle in any package, and on a type cycle outside a vocabulary", () => {
    const dir = tree("cycles", {
      "packages/any/src/a.ts": 'import { b } from "./b";\nexport const a = () => b;\n',
      "packages/any/src/b.ts": 'import { a } from "./a";\nexport const b = () => a;\n',
      "apps/any/src/c.ts": 'import type { D } from "./d";\nexport interface C { d?: D }\n',
      "apps/any/src/d.ts": 'import type { C } from "./c";\nexport interface D { c?: C }\n',
    });
    const { status, out } = cruise(dir, ["packages", "apps"]);
    expect(status).not.toBe(0);
    expect(out).toMatch(/no-value-cycle: packages\/any\/src\/[ab]\.ts/);
    expect(out).toMatch(/no-type-cycle: apps\/any\/src\/[cd]\.ts/);
    expect(out).not.toMatch(/no-value-cycle: apps/);
  });
});
