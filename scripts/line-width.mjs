// Source lines past the formatter's width (120). Prettier cannot break a long string, template or
// comment, so this counts what it leaves. Lines already over the width are listed per file in
// line-width-baseline.json; a file may only go down from its number, and a file not listed may have
// none. Run from a package's `lint` (its src/), or from the root with --all; --write records the
// counts of today as the new baseline (after shortening lines, or for a line that cannot be split).
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const WIDTH = 120;
const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;
const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const baselinePath = join(root, "scripts", "line-width-baseline.json");

const args = new Set(process.argv.slice(2));
const scope = args.has("--all")
  ? [":(glob)packages/*/src/**", ":(glob)apps/*/src/**"]
  : [join(relative(root, process.cwd()), "src")];
const files = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "--", ...scope], {
  cwd: root,
  encoding: "utf8",
})
  .split("\n")
  .filter((f) => SOURCE.test(f));

const counts = {};
for (const file of files) {
  let text;
  try {
    text = readFileSync(join(root, file), "utf8");
  } catch {
    continue; // deleted in the working tree, not yet in the index
  }
  const over = text.split("\n").filter((line) => line.length > WIDTH).length;
  if (over > 0) counts[file] = over;
}

const baseline = JSON.parse(readFileSync(baselinePath, "utf8"));
if (args.has("--write")) {
  // A package's run re-counts only its own files; the others' entries stay as they were.
  const read = new Set(files);
  const kept = args.has("--all") ? [] : Object.entries(baseline).filter(([file]) => !read.has(file));
  const next = Object.fromEntries([...kept, ...Object.entries(counts)].sort(([a], [b]) => a.localeCompare(b, "en")));
  writeFileSync(baselinePath, `${JSON.stringify(next, null, 2)}\n`);
  console.log(`line-width: ${Object.keys(next).length} files with lines over ${WIDTH} recorded`);
  process.exit(0);
}

const grown = Object.entries(counts).filter(([file, n]) => n > (baseline[file] ?? 0));
for (const [file, n] of grown) {
  console.error(
    `line-width: ${file} has ${n} lines over ${WIDTH} characters (allowed: ${baseline[file] ?? 0}). ` +
      "Split the long strings or comments (prettier keeps them whole); a line that truly cannot be split is " +
      "recorded with `pnpm line-width --write`, and the baseline's diff shows it in review.",
  );
}
if (grown.length > 0) process.exit(1);
