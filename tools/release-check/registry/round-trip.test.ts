// The release flow against a real npm registry on loopback (Verdaccio, empty storage): changesets
// versions and publishes every package of a copy of the workspace; a project outside the workspace
// runs two READMEs' install lines exactly as printed, then their snippets; a patch of one package
// publishes that package alone, which a new install picks up inside its unchanged dependents while
// the first project's lockfile keeps the old versions; a minor of it (breaking, on 0.x) also
// republishes its direct dependents with the new range, as `updateInternalDependencies` says; a
// pre-release goes out under the `next` dist-tag only. Step times go to the log, never asserted.
import { execFileSync, type ExecFileSyncOptions } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readmeProgram } from "@x/publish-check/snippets";
import { cleanEnv, startRegistry, type LoopbackRegistry } from "../src/registry";
import { commit, copyWorkspace, publishable, readManifest, REPO_ROOT, dependentsOf } from "../src/workspace-copy";

const work = mkdtempSync(join(tmpdir(), "x-release-"));
const stage = join(work, "workspace");
const rootRequire = createRequire(join(REPO_ROOT, "package.json"));
const changesetBin = rootRequire.resolve("@changesets/cli/bin.js");
const tsxBin = rootRequire.resolve("tsx/cli");
/**
 * The packages a user installs by their READMEs' lines, with what their snippets print. Both lines
 * name every package their snippet imports, so they hold under pnpm's strict node_modules.
 */
const CHOSEN = [
  { name: "brain-faux", prints: /\n error provider\n\[ 200, 200, 200, 200, 200 \]\n$/ },
  { name: "terminal-cause", prints: /^rate_limited true\n$/ },
];
/** The later releases change brain-kit: brain-faux depends on it, terminal-cause does not. */
const PATCHED = "@x/brain-kit";
/** The pre-release: a package nothing depends on at run time. */
const PRE = "@x/strategy-store-memory";
let registry: LoopbackRegistry;

function run(command: string, args: readonly string[], options: ExecFileSyncOptions): string {
  const start = performance.now();
  try {
    return execFileSync(command, args, { encoding: "utf8", stdio: "pipe", timeout: 120_000, ...options }) as string;
  } catch (error) {
    const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(" ")} failed:\n${stdout}\n${stderr}`, { cause: error });
  } finally {
    console.log(`${[command, ...args].join(" ").slice(-80)}: ${((performance.now() - start) / 1000).toFixed(1)} s`);
  }
}

const changeset = (...args: string[]) =>
  run(process.execPath, [changesetBin, ...args], { cwd: stage, env: registry.env });

const readme = (name: string) => readFileSync(join(REPO_ROOT, "packages", name, "README.md"), "utf8");

/** A project outside the workspace whose @x scope comes from the loopback registry, everything else from its usual one. */
function consumer(name: string): string {
  const dir = join(work, name);
  mkdirSync(dir);
  writeFileSync(join(dir, ".npmrc"), `@x:registry=${registry.url}\n`);
  return dir;
}

/**
 * pnpm's environment for one install, with a store of its own as on a new machine: pnpm keeps the
 * registry's metadata in its store and would answer a later install from what an earlier one read.
 */
const pnpmEnv = (store: string, extra: NodeJS.ProcessEnv = {}) => ({
  ...cleanEnv(),
  pnpm_config_store_dir: join(work, "stores", store),
  ...extra,
});

/** Runs each chosen README's install line in `dir` as printed (a shell reads it, so its comment stays one). */
function installByReadmes(dir: string, env: NodeJS.ProcessEnv): void {
  for (const { name } of CHOSEN) {
    const line = /```sh\n(.*)\n/.exec(readme(name))?.[1] ?? "";
    expect(line, `${name} README's install line`).toMatch(/^pnpm add /);
    run("sh", ["-c", line], { cwd: dir, env });
  }
}

function runSnippets(dir: string): void {
  for (const { name, prints } of CHOSEN) {
    writeFileSync(join(dir, `${name}.mts`), readmeProgram(readme(name)).program ?? "");
    expect(run(process.execPath, [tsxBin, `${name}.mts`], { cwd: dir, env: cleanEnv() }), name).toMatch(prints);
  }
}

/** The version of `name` a consumer resolves: from its root, or from inside the package `from`. */
function installed(dir: string, name: string, from?: string): string {
  const base = from ? realpathSync(join(dir, "node_modules", from, "package.json")) : join(dir, "package.json");
  return readManifest(join(createRequire(base).resolve(`${name}/package.json`), "..")).version;
}

beforeAll(async () => {
  registry = await startRegistry(280_000);
  copyWorkspace(stage);
}, 60_000);

afterAll(async () => {
  await registry?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe("a release through a registry on loopback", () => {
  let first: Map<string, string>;
  let app: string;

  it("publishes every package at the version changesets gives it, with its CHANGELOG", async () => {
    changeset("version");
    commit(stage, "version packages");
    const packages = publishable(stage);
    first = new Map([...packages].map(([name, pkg]) => [name, pkg.version]));
    changeset("publish");
    for (const [name, version] of first) {
      expect(version, name).not.toBe("0.0.0");
      expect((await registry.packument(name)).distTags, name).toEqual({ latest: version });
    }
    expect(readFileSync(join(packages.get("@x/runner")!.dir, "CHANGELOG.md"), "utf8")).toMatch(/^# @x\/runner\n\n## /);
  }, 180_000);

  it("installs by the READMEs' lines, exactly as printed, and runs their snippets", () => {
    app = consumer("app");
    installByReadmes(app, pnpmEnv("app"));
    expect(installed(app, "@x/brain-faux")).toBe(first.get("@x/brain-faux"));
    expect(installed(app, PATCHED, "@x/brain-faux")).toBe(first.get(PATCHED));
    runSnippets(app);
  }, 120_000);

  /** Versions `changeset` and publishes one changeset's bump; returns the packages that gained a version. */
  async function release(bump: "patch" | "minor"): Promise<Set<string>> {
    const before = new Map(
      await Promise.all([...first.keys()].map(async (n) => [n, (await registry.packument(n)).versions] as const)),
    );
    writeFileSync(
      join(stage, `.changeset/registry-check-${bump}.md`),
      `---\n"${PATCHED}": ${bump}\n---\n\nA ${bump}.\n`,
    );
    commit(stage, `a ${bump}`);
    changeset("version");
    commit(stage, "version packages");
    changeset("publish");
    const packages = publishable(stage);
    const bumped = new Set<string>();
    for (const name of first.keys()) {
      const { versions, distTags } = await registry.packument(name);
      expect(versions.slice(0, before.get(name)!.length), name).toEqual(before.get(name));
      expect(distTags.latest, name).toBe(packages.get(name)!.version);
      if (versions.length > before.get(name)!.length) bumped.add(name);
    }
    console.log(
      `${bump} of ${PATCHED}: ${bumped.size} of ${first.size} packages published (${[...bumped].join(", ")})`,
    );
    return bumped;
  }

  it(`publishes a patch of ${PATCHED} alone; a new install gets it, the installed project keeps the old one`, async () => {
    expect([...(await release("patch"))]).toEqual([PATCHED]);
    const patched = publishable(stage).get(PATCHED)!.version;

    const lockfile = readFileSync(join(app, "pnpm-lock.yaml"), "utf8");
    rmSync(join(app, "node_modules"), { recursive: true });
    run("pnpm", ["install", "--frozen-lockfile"], { cwd: app, env: pnpmEnv("app-again") });
    expect(readFileSync(join(app, "pnpm-lock.yaml"), "utf8")).toBe(lockfile);
    expect(installed(app, PATCHED, "@x/brain-faux")).toBe(first.get(PATCHED));
    runSnippets(app);

    // A new project a day later: pnpm's default minimumReleaseAge keeps a version published minutes
    // ago out of a dependency's range (it took 0.1.0 here), so the test lets the day pass.
    const fresh = consumer("fresh");
    installByReadmes(fresh, pnpmEnv("fresh", { pnpm_config_minimum_release_age: "0" }));
    expect(installed(fresh, "@x/brain-faux")).toBe(first.get("@x/brain-faux"));
    expect(installed(fresh, PATCHED, "@x/brain-faux")).toBe(patched);
    runSnippets(fresh);
  }, 180_000);

  it(`publishes a minor of ${PATCHED} with its direct dependents, which now ask for it`, async () => {
    const bumped = await release("minor");
    const packages = publishable(stage);
    expect([...bumped].sort()).toEqual([PATCHED, ...dependentsOf(PATCHED, packages)].sort());
    expect(bumped.has("@x/terminal-cause")).toBe(false);
    const minor = packages.get(PATCHED)!.version;
    for (const name of dependentsOf(PATCHED, packages))
      expect((await registry.packument(name)).latestDependencies[PATCHED], name).toBe(`^${minor}`);
  }, 120_000);

  it("publishes a pre-release under the next dist-tag, leaving latest alone", async () => {
    const before = (await registry.packument(PRE)).distTags.latest;
    changeset("pre", "enter", "next");
    writeFileSync(join(stage, ".changeset/registry-check-next.md"), `---\n"${PRE}": patch\n---\n\nA pre-release.\n`);
    commit(stage, "a pre-release");
    changeset("version");
    commit(stage, "version packages (next)");
    changeset("publish");
    const { distTags } = await registry.packument(PRE);
    expect(distTags).toEqual({ latest: before, next: expect.stringMatching(/-next\.0$/) });
  }, 120_000);
});
