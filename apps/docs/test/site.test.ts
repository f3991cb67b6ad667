// The docs site as `pnpm test` builds it: generated from the repository, built by VitePress with its
// dead-link check on (a planted dead link fails a build), every page and API page there, llms.txt naming
// every package, and every TypeScript block it shows one the packed-consumer test compiles (a README's).
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const here = join(import.meta.dirname, "..");
const ROOT = join(here, "../..");
const site = join(here, "site");
const dist = join(site, ".vitepress", "dist");
const vitepress = join(here, "node_modules", "vitepress", "bin", "vitepress.js");
const packages = readdirSync(join(ROOT, "packages")).filter((name) => {
  const manifest = join(ROOT, "packages", name, "package.json");
  return existsSync(manifest) && JSON.parse(readFileSync(manifest, "utf8")).private !== true;
});

beforeAll(async () => {
  await run(process.execPath, [join(here, "scripts", "generate.mjs")], { cwd: here });
  await run(process.execPath, [vitepress, "build", "site"], { cwd: here, timeout: 280_000 });
}, 300_000);

const blocks = (markdown: string) => [...markdown.matchAll(/^```ts[^\n]*\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);

describe("the docs site", () => {
  it("has the overview, the first agent, the guides, the benchmarks, and a page and an API page per package", () => {
    for (const file of ["index.html", "first-agent.html", "guides.html", "bench.html"])
      expect(existsSync(join(dist, file)), file).toBe(true);
    for (const name of packages) {
      expect(existsSync(join(dist, "packages", `${name}.html`)), name).toBe(true);
      expect(existsSync(join(dist, "api", `${name}.html`)), name).toBe(true);
    }
    expect(readFileSync(join(dist, "api", "models.html"), "utf8")).toContain("An OpenAI model on Chat Completions");
  });

  it("serves llms.txt naming every package's page and API page, each there as markdown", () => {
    const llms = readFileSync(join(dist, "llms.txt"), "utf8");
    for (const name of packages) {
      expect(llms).toContain(`(/packages/${name}.md)`);
      expect(existsSync(join(dist, "packages", `${name}.md`)), name).toBe(true);
      expect(existsSync(join(dist, "api", `${name}.md`)), name).toBe(true);
    }
  });

  it("shows only TypeScript the packed-consumer test compiles: every block is a README's", () => {
    const readmes = [join(ROOT, "README.md"), ...packages.map((name) => join(ROOT, "packages", name, "README.md"))]
      .map((file) => readFileSync(file, "utf8"))
      .join("\n");
    const pages = ["index.md", "first-agent.md", "bench.md", ...packages.map((name) => join("packages", `${name}.md`))];
    let shown = 0;
    for (const page of pages)
      for (const block of blocks(readFileSync(join(site, page), "utf8"))) {
        shown += 1;
        expect(readmes, `${page} shows a block no README has`).toContain(block);
      }
    expect(shown).toBeGreaterThan(packages.length);
  });

  it("fails to build with a dead link (VitePress's check is on)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "x-docs-dead-"));
    try {
      mkdirSync(join(dir, "site", ".vitepress"), { recursive: true });
      writeFileSync(join(dir, "site", ".vitepress", "config.mts"), "export default { ignoreDeadLinks: false };\n");
      writeFileSync(join(dir, "site", "index.md"), "# Home\n\nSee [the missing page](/nowhere).\n");
      const build = run(process.execPath, [vitepress, "build", "site"], { cwd: dir, timeout: 120_000 });
      await expect(build).rejects.toThrow(/dead link/i);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 150_000);
});
