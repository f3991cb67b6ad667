// Installs the @x packages outside this repository while they are not on the npm registry: builds every
// package, packs each into one folder (as `pnpm publish` would pack it: workspace ranges become versions),
// and prints the one `npm i` line that installs the packages you name together with every @x package they
// depend on. A packed package names its @x dependencies by version (`@x/brain-kit@^0.0.0`), which the
// registry cannot answer, so they must be installed in the same command, from the same folder.
//
//   pnpm pack-all @x/runner @x/brain-openai          # build, pack all, print the line for these two
//   pnpm pack-all --out ~/x-tarballs runner          # the @x/ prefix is optional
//   node scripts/pack-all.mjs --no-build --list      # the packages there are, with their @x dependencies
//
// Progress goes to stderr and the line alone to stdout, so `$(pnpm --silent pack-all @x/runner)` runs it.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const USAGE = "usage: node scripts/pack-all.mjs [--out <dir>] [--no-build] [--list] <@x/package>...";

/** Every publishable package under packages/: name → { dir, manifest }. */
export function workspacePackages(root = ROOT) {
  const parent = join(root, "packages");
  const found = new Map();
  for (const entry of readdirSync(parent, { withFileTypes: true })) {
    const file = join(parent, entry.name, "package.json");
    if (!entry.isDirectory() || !existsSync(file)) continue;
    const manifest = JSON.parse(readFileSync(file, "utf8"));
    if (manifest.private !== true) found.set(manifest.name, { dir: join(parent, entry.name), manifest });
  }
  return found;
}

/** The named packages and every @x package they depend on at run time, in a stable order. */
export function closure(names, packages) {
  const seen = new Set();
  const visit = (name) => {
    if (seen.has(name)) return;
    const pkg = packages.get(name);
    if (!pkg) throw new Error(`unknown package ${name}; there are: ${[...packages.keys()].join(", ")}`);
    seen.add(name);
    for (const dep of Object.keys(pkg.manifest.dependencies ?? {})) if (packages.has(dep)) visit(dep);
  };
  for (const name of names) visit(name);
  return [...seen].sort();
}

/** Packs every package into `out` (emptied of old tarballs first); returns name → tarball path. */
export function packEvery(packages, out) {
  mkdirSync(out, { recursive: true });
  for (const file of readdirSync(out)) if (file.endsWith(".tgz")) rmSync(join(out, file));
  const tarballs = new Map();
  for (const [name, { dir }] of packages) {
    const before = new Set(readdirSync(out));
    execFileSync("pnpm", ["pack", "--pack-destination", out], { cwd: dir, stdio: ["ignore", "ignore", "inherit"] });
    const made = readdirSync(out).find((file) => file.endsWith(".tgz") && !before.has(file));
    if (!made) throw new Error(`pnpm pack made no tarball for ${name}`);
    tarballs.set(name, join(out, made));
  }
  return tarballs;
}

/** The one install line: every tarball of the closure, quoted for a POSIX shell. */
export function installLine(names, tarballs) {
  const quote = (path) => (/^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replaceAll("'", "'\\''")}'`);
  return `npm i ${names.map((name) => quote(tarballs.get(name))).join(" ")}`;
}

function parseArgs(argv) {
  const options = { out: join(ROOT, ".packed"), build: true, list: false, names: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--out") options.out = resolve(argv[++i] ?? "");
    else if (arg === "--no-build") options.build = false;
    else if (arg === "--list") options.list = true;
    else if (arg === "--help" || arg === "-h") options.help = true;
    else if (arg.startsWith("-")) throw new Error(`unknown option ${arg}\n${USAGE}`);
    else options.names.push(arg.startsWith("@x/") ? arg : `@x/${arg}`);
  }
  return options;
}

function main() {
  const options = parseArgs(process.argv.slice(2));
  const packages = workspacePackages();
  if (options.help) return void console.log(USAGE);
  if (options.list) {
    for (const name of packages.keys()) console.log(`${name}  (+ ${closure([name], packages).length - 1} @x deps)`);
    return;
  }
  if (options.names.length === 0) throw new Error(`name at least one package to install\n${USAGE}`);
  const wanted = closure(options.names, packages);
  if (options.build) {
    console.error("building every package (turbo; cached builds are reused)…");
    execFileSync(
      "pnpm",
      ["-w", "exec", "turbo", "run", "build", "--filter=./packages/*", "--output-logs=errors-only"],
      {
        cwd: ROOT,
        stdio: ["ignore", "ignore", "inherit"],
      },
    );
  }
  const tarballs = packEvery(packages, options.out);
  console.error(`packed ${tarballs.size} packages into ${options.out}; in your project, run:`);
  console.log(installLine(wanted, tarballs));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    main();
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}
