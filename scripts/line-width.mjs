// Source lines past the formatter's width (120). Prettier cannot break a long string, template or
// comment, so this check finds what it leaves: none may pass the width. Split a long string into
// joined pieces of the same text, and rewrap a long comment. Run from a package's `lint` (its
// sources, tests and benches), or from the root with --all (every package, app, bench and script).
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const WIDTH = 120;
const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;
const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

const scope = process.argv.includes("--all")
  ? [":(glob)packages/**", ":(glob)apps/**", ":(glob)bench/**", ":(glob)scripts/**"]
  : [relative(root, process.cwd()) || "."];
const files = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "--", ...scope], {
  cwd: root,
  encoding: "utf8",
})
  .split("\n")
  .filter((f) => SOURCE.test(f));

let over = 0;
for (const file of files) {
  let text;
  try {
    text = readFileSync(join(root, file), "utf8");
  } catch {
    continue; // deleted in the working tree, not yet in the index
  }
  text.split("\n").forEach((line, i) => {
    if (line.length <= WIDTH) return;
    over += 1;
    console.error(`line-width: ${file}:${i + 1} has ${line.length} characters (the width is ${WIDTH})`);
  });
}
if (over > 0) {
  console.error(`line-width: ${over} lines over ${WIDTH}. Split strings into joined pieces; rewrap comments.`);
  process.exit(1);
}
