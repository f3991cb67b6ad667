// A newcomer's install outside the repository, as the READMEs print it: `pnpm pack-all <packages>` packs
// every package into one folder and prints one `npm i` line; run as printed in a fresh npm project that
// already has zod — on zod 4 and on zod 3.25 (whose `zod/v4` our packages import) — it installs the chosen
// packages with their @x dependencies, the Postgres packages' types resolve with no @types/pg of the
// user's own, and a program using both compiles under `strict` (library checks on) and runs a task.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../src/workspace";

const work = mkdtempSync(join(tmpdir(), "x-install-"));
const rootRequire = createRequire(join(REPO_ROOT, "package.json"));
const tsc = rootRequire.resolve("typescript/bin/tsc");
const tsx = rootRequire.resolve("tsx/cli");
/** The entry packages a queue-backed app would name; the line must bring their @x dependencies too. */
const CHOSEN = ["@x/queue-postgres", "@x/strategy-store-postgres", "@x/brain-faux"];
let line = "";

/** The user's program: a zod/v4 tool on a faux task, and both Postgres packages' pg-typed surfaces. */
const PROGRAM = `import { z } from "zod/v4";
import { createRunner, defineTool } from "@x/runner";
import { createFauxBrain, fauxModel, fauxText, fauxToolCall } from "@x/brain-faux";
import { ensureSchema, type TaskQueueOptions } from "@x/queue-postgres";
import { PostgresStrategyStore } from "@x/strategy-store-postgres";
import type { Pool } from "pg";

const add = defineTool({
  name: "add",
  description: "Adds two numbers.",
  input: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => String(a + b),
});
const brain = createFauxBrain([fauxToolCall("add", { a: 2, b: "x" }), fauxToolCall("add", { a: 2, b: 3 }), fauxText("5")]);
const runner = createRunner({ brains: [brain], models: { m: fauxModel() } });
const result = await runner.runTask({ objective: "add 2 and 3", tools: [add], permissions: { add: "allow" } });
const refused = result.messages.filter((m) => m.role === "toolResult" && m.isError).length;

// pg's types resolve (were they \`any\`, these expectations would be unused and fail the compile).
const options: TaskQueueOptions = { schema: "app" };
// @ts-expect-error a number is not a pg.Pool
const wrong: TaskQueueOptions = { pool: 42 };
const migrate: (pool: Pool, schema: string) => Promise<void> = ensureSchema;
const store: typeof PostgresStrategyStore | undefined = undefined;
void [options, wrong, migrate, store];
console.log(result.status, result.output, refused);
`;

function run(command: string, args: readonly string[], cwd: string): string {
  try {
    return execFileSync(command, args, { cwd, encoding: "utf8", stdio: "pipe", timeout: 240_000 });
  } catch (error) {
    const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(" ")} failed:\n${stdout}\n${stderr}`, { cause: error });
  }
}

/** A fresh project outside the workspace that already depends on `zod` at `version`. */
function project(name: string, zod: string): string {
  const dir = join(work, name);
  mkdirSync(dir);
  const manifest = { name, private: true, type: "module", dependencies: { zod, "@types/node": "20.19.43" } };
  writeFileSync(join(dir, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  const flags = ["--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"];
  run("npm", ["install", ...flags], dir);
  // The printed line, run by a shell as a user pastes it.
  run("sh", ["-c", `${line} ${flags.join(" ")}`], dir);
  return dir;
}

const compilerOptions = {
  strict: true,
  noEmit: true,
  skipLibCheck: false,
  target: "ES2022",
  lib: ["ES2023"],
  module: "node16",
  moduleResolution: "node16",
  types: ["node"],
};

beforeAll(() => {
  const out = run(
    process.execPath,
    [join(REPO_ROOT, "scripts/pack-all.mjs"), "--no-build", "--out", join(work, "tarballs"), ...CHOSEN],
    REPO_ROOT,
  );
  line = out.trim();
}, 300_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("pnpm pack-all's npm i line, in a project outside the workspace", () => {
  it("names a tarball for each chosen package and each @x package they need, and nothing else", () => {
    const names = [...line.matchAll(/x-([a-z-]+)-\d+\.\d+\.\d+\.tgz/g)].map((m) => `@x/${m[1]}`).sort();
    expect(line).toMatch(/^npm i \//);
    expect(names).toEqual([
      "@x/brain-faux",
      "@x/brain-kit",
      "@x/classifier-ladder",
      "@x/llm-types",
      "@x/queue-postgres",
      "@x/runner",
      "@x/strategy-store-core",
      "@x/strategy-store-postgres",
      "@x/terminal-cause",
    ]);
  });

  it.each([
    ["zod 4", "4.1.13"],
    ["zod 3.25", "3.25.76"],
  ])(
    "on %s: installs as printed, keeps the user's zod, types pg without the user's @types/pg, compiles and runs",
    (name, zod) => {
      const dir = project(name.replace(/\W+/g, "-"), zod);
      const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
      expect(manifest.dependencies.zod).toBe(zod);
      expect(Object.keys(manifest.dependencies)).not.toContain("@types/pg");
      expect(existsSync(join(dir, "node_modules/@types/pg/index.d.ts"))).toBe(true);
      expect(JSON.parse(readFileSync(join(dir, "node_modules/zod/package.json"), "utf8")).version).toBe(zod);
      writeFileSync(join(dir, "app.mts"), PROGRAM);
      writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions, files: ["app.mts"] }));
      expect(run(process.execPath, [tsc, "-p", "."], dir)).toBe("");
      // 2 + "x" is refused by the user's own zod/v4 schema; 2 + 3 runs.
      expect(run(process.execPath, [tsx, "app.mts"], dir)).toBe("completed 5 1\n");
    },
    300_000,
  );
});
