// Source lines past the formatter's width (120). Prettier cannot break a long string, template or
// comment, so this counts what it leaves. Lines already over the width are listed per file in
// line-width-baseline.json; a file may only go down from its number, and a file not listed may have
// none. Run from a package's `lint` (its src/), or from the root with --all; --write records the
// counts of today as the new baseline (do that only after shortening lines, never to let new ones in).
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

if (args.has("--write")) {
  writeFileSync(baselinePath, `${JSON.stringify(counts, Object.keys(counts).sort(), 2)}\n`);
  console.log(`line-width: ${Object.keys(counts).length} files with lines over ${WIDTH} recorded`);
  process.exit(0);
}

const baseline = JSON.parse(readFileSync(baselinePath, "utf8"));
const grown = Object.entries(counts).filter(([file, n]) => n > (baseline[file] ?? 0));
for (const [file, n] of grown) {
  console.error(
    `line-width: ${file} has ${n} lines over ${WIDTH} characters (allowed: ${baseline[file] ?? 0}). ` +
      "Split the long strings or comments (prettier keeps them whole).",
  );
}
if (grown.length > 0) process.exit(1);
