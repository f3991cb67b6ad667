// A user's view of the packages (built first by the test:packed script): every package packed, installed with npm into a project outside the
// workspace (zod at an older 4.x minor than the workspace pins), loaded by ESM import and CJS require,
// and its README's TypeScript compiled under `strict` with node16 and bundler resolution.
import { execFile, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONSUMER_DEPENDENCIES, entryPoints, installConsumer, packAll, strictTsconfig } from "../src/consumer-project";
import { readmeProgram } from "../src/snippets";
import { publishablePackages, REPO_ROOT } from "../src/workspace";

const packages = publishablePackages();
const work = mkdtempSync(join(tmpdir(), "x-consumer-"));
const project = join(work, "project");
const execFileAsync = promisify(execFile);
const tsc = createRequire(join(REPO_ROOT, "package.json")).resolve("typescript/bin/tsc");

/** Runs a snippet of JavaScript with node inside the consumer project; returns stdout. */
function node(args: readonly string[]): string {
  const run = spawnSync(process.execPath, args, { cwd: project, encoding: "utf8", timeout: 60_000 });
  if (run.status !== 0) throw new Error(`node ${args.join(" ")} failed:\n${run.stderr}`);
  return run.stdout;
}

/** tsc's complaints about one config, empty when it compiles; asynchronous, so the two resolutions check side by side. */
async function typecheck(config: string): Promise<string> {
  try {
    await execFileAsync(process.execPath, [tsc, "-p", config], { cwd: project, timeout: 280_000 });
    return "";
  } catch (error) {
    const { stdout = "", stderr = "", message } = error as { stdout?: string; stderr?: string; message: string };
    return `${stdout}${stderr}`.trim() || message;
  }
}

/** Runs one setup step and says how long it took (the test's cost is read from its log, never asserted). */
function timed(step: string, work: () => void): void {
  const start = performance.now();
  work();
  console.log(`${step}: ${((performance.now() - start) / 1000).toFixed(1)} s`);
}

beforeAll(() => {
  let tarballs = new Map<string, string>();
  timed(`pack ${packages.length} packages`, () => (tarballs = packAll(packages, join(work, "tarballs"))));
  mkdirSync(project);
  timed("npm install", () => installConsumer(project, tarballs));
}, 600_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("packed packages in a fresh npm project", () => {
  it("installs zod at the older minor, not the workspace's pin", () => {
    const installed = JSON.parse(readFileSync(join(project, "node_modules/zod/package.json"), "utf8")).version;
    expect(installed).toBe(CONSUMER_DEPENDENCIES.zod);
    const pinned = JSON.parse(readFileSync(join(REPO_ROOT, "packages/llm-types/package.json"), "utf8"));
    expect(installed).not.toBe(pinned.devDependencies.zod);
  });

  it.each(packages.map((p) => [p.manifest.name, p] as const))(
    "%s ships its LICENSE and README in the tarball",
    (name) => {
      const dir = join(project, "node_modules", name);
      expect(readFileSync(join(dir, "LICENSE"), "utf8")).toBe(readFileSync(join(REPO_ROOT, "LICENSE"), "utf8"));
      expect(readFileSync(join(dir, "README.md"), "utf8")).toMatch(new RegExp(`^# ${name}`));
    },
  );

  const entries = packages.flatMap((p) => entryPoints(p));
  it.each(entries.map((e) => [e.specifier, e] as const))(
    "%s loads by ESM import and CJS require, with the same exports",
    (_name, entry) => {
      const specifier = JSON.stringify(entry.specifier);
      const esm = node([
        "--input-type=module",
        "-e",
        `console.log(Object.keys(await import(${specifier})).sort().join(","))`,
      ]);
      expect(esm.trim()).not.toBe("");
      const required = spawnSync(
        process.execPath,
        ["-e", `console.log(Object.keys(require(${specifier})).sort().join(","))`],
        {
          cwd: project,
          encoding: "utf8",
        },
      );
      if (!entry.cjs) {
        // ESM-only: refused by the exports map, not half-loaded.
        expect(required.stderr).toContain("ERR_PACKAGE_PATH_NOT_EXPORTED");
        return;
      }
      expect(required.stderr).toBe("");
      expect(required.stdout.trim().split(",")).toEqual(
        esm
          .trim()
          .split(",")
          .filter((key) => key !== "default"),
      );
    },
  );

  it("uses the consumer's zod for tool schemas (defineTool with a zod 4.1 schema runs a real task)", () => {
    const out = node([
      "--input-type=module",
      "-e",
      [
        'import { z } from "zod";',
        'import { createRunner, defineTool } from "@x/runner";',
        'import { createFauxBrain, fauxModel, fauxText, fauxToolCall } from "@x/brain-faux";',
        'const add = defineTool({ name: "add", description: "adds", input: z.object({ a: z.number(), b: z.number() }), execute: ({ a, b }) => String(a + b) });',
        'const runner = createRunner({ brains: [createFauxBrain([fauxToolCall("add", { a: 2, b: "x" }), fauxToolCall("add", { a: 2, b: 3 }), fauxText("5")])], models: { m: fauxModel() } });',
        'const r = await runner.runTask({ objective: "add", tools: [add], permissions: { add: "allow" } });',
        "const results = r.messages.filter((m) => m.role === 'toolResult').map((m) => [m.isError, m.content[0].text.split('\\n')[0]]);",
        "console.log(JSON.stringify({ status: r.status, output: r.output, results }));",
      ].join("\n"),
    ]);
    const result = JSON.parse(out);
    expect(result.status).toBe("completed");
    expect(result.output).toBe("5");
    expect(result.results[0][0]).toBe(true); // b: "x" refused by the consumer's schema
    expect(result.results[1]).toEqual([false, "5"]);
  });

  const readmes = [{ name: "README", file: join(REPO_ROOT, "README.md") }].concat(
    packages.map((p) => ({ name: p.manifest.name.replace("@x/", ""), file: join(p.dir, "README.md") })),
  );

  it.concurrent.each(["node16", "bundler"] as const)(
    "every README's TypeScript and every entry's types compile under strict, %s resolution",
    async (resolution) => {
      const files: string[] = [];
      for (const readme of readmes) {
        const { program } = readmeProgram(readFileSync(readme.file, "utf8"));
        if (program === undefined) continue;
        writeFileSync(join(project, `readme-${resolution}-${readme.name}.ts`), program);
        files.push(`readme-${resolution}-${readme.name}.ts`);
      }
      // Each entry's declarations, for ESM importers and (node16 only) for CJS requirers.
      writeFileSync(
        join(project, `entries-${resolution}.ts`),
        entries
          .map((entry, i) => `import * as e${i} from ${JSON.stringify(entry.specifier)};\nvoid e${i};\n`)
          .join("") + "export {};\n",
      );
      writeFileSync(
        join(project, `entries-${resolution}-cjs.cts`),
        entries
          .filter((entry) => entry.cjs)
          .map((entry, i) => `import e${i} = require(${JSON.stringify(entry.specifier)});\nvoid e${i};\n`)
          .join("") + "export {};\n",
      );
      files.push(`entries-${resolution}.ts`);
      if (resolution === "node16") files.push(`entries-${resolution}-cjs.cts`);
      const config = `tsconfig.${resolution}.json`;
      writeFileSync(join(project, config), strictTsconfig(resolution, files));
      expect(files.length).toBeGreaterThan(packages.length);
      expect(await typecheck(config)).toBe("");
    },
    300_000,
  );
});
