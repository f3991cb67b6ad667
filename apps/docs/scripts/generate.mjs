// Writes the docs site's pages (site/) from the repository: the root README and every package's README
// as pages (their links rewritten to site pages, or to the repository for files that are not pages), the
// guide index, an API reference per package read from its types with the TypeScript compiler (each
// exported name, its kind, its JSDoc), the benchmark tables gathered from the READMEs, and llms.txt /
// llms-full.txt. The README snippets these pages show are the ones the packed-consumer test compiles.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const SITE = resolve(dirname(fileURLToPath(import.meta.url)), "../site");
const rootManifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
const REPO_URL = `${rootManifest.homepage}/blob/main`;

/** The guides a newcomer looks for, and the page (and section) that holds each. */
export const GUIDES = [
  ["Your first agent", "/first-agent"],
  ["Tools and auto mode", "/packages/runner#auto-mode"],
  ["Approvals and parks", "/packages/runner#approvals-and-parking"],
  ["Teacher mode", "/packages/teacher"],
  ["Strategy memory", "/packages/strategy-store-core"],
  ["Sub-runs", "/packages/runner#sub-runs-a-child-task-as-a-tool"],
  ["MCP servers' tools", "/packages/mcp"],
  ["Scale-out on PostgreSQL", "/packages/queue-postgres"],
  ["UI streams", "/packages/ui-stream"],
  ["Model presets", "/packages/models"],
];

function packages() {
  const parent = join(ROOT, "packages");
  return readdirSync(parent)
    .filter((name) => existsSync(join(parent, name, "package.json")) && existsSync(join(parent, name, "README.md")))
    .map((name) => ({
      name,
      dir: join(parent, name),
      manifest: JSON.parse(readFileSync(join(parent, name, "package.json"), "utf8")),
    }))
    .filter((pkg) => pkg.manifest.private !== true)
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** A README's links as the site needs them: other READMEs become pages, other files the repository's copy. */
function rewriteLinks(markdown, file) {
  return markdown.replace(/\]\(([^)\s]+)\)/g, (whole, target) => {
    if (/^[a-z]+:/i.test(target) || target.startsWith("#")) return whole;
    const [path, anchor] = target.split("#");
    const absolute = resolve(dirname(file), path);
    const rel = relative(ROOT, absolute);
    const hash = anchor ? `#${anchor}` : "";
    if (rel === "README.md") return `](/${hash})`;
    const pkg = /^packages\/([^/]+)\/README\.md$/.exec(rel);
    if (pkg) return `](/packages/${pkg[1]}${hash})`;
    return `](${REPO_URL}/${rel}${hash})`;
  });
}

/** Text Vue would read as template syntax outside code: escaped so VitePress shows it as written. */
function vueSafe(markdown) {
  const parts = markdown.split(/(^```[\s\S]*?^```$|`[^`\n]*`)/m);
  return parts.map((part, i) => (i % 2 === 1 ? part : part.replaceAll("{{", "&#123;&#123;"))).join("");
}

/** A page, and its markdown under public/ at the same path + `.md`, where llms.txt points readers and tools. */
function page(file, markdown) {
  const raw = join(SITE, "public", relative(SITE, file));
  for (const target of [file, raw]) {
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, markdown);
  }
}

/** The section of a markdown text under `## heading`, up to the next `## `. */
function section(markdown, heading) {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  if (start < 0) return "";
  const rest = markdown.slice(start + 1);
  const end = rest.indexOf("\n## ", 4);
  return end < 0 ? rest : rest.slice(0, end + 1);
}

/** A package's entry points: subpath → source file, from the `@x/source` condition. */
function entriesOf(pkg) {
  return Object.entries(pkg.manifest.exports ?? {})
    .filter(([, target]) => typeof target === "object" && typeof target["@x/source"] === "string")
    .map(([subpath, target]) => ({ subpath, file: resolve(pkg.dir, target["@x/source"]) }));
}

/** One TypeScript program over every package's entry points (one type-check for the whole reference). */
function programOf(all) {
  const base = JSON.parse(readFileSync(join(ROOT, "tsconfig.base.json"), "utf8")).compilerOptions;
  const options = { ...ts.convertCompilerOptionsFromJson(base, ROOT).options, noEmit: true };
  return ts.createProgram(
    all.flatMap((pkg) => entriesOf(pkg).map((e) => e.file)),
    options,
  );
}

/** Each exported name of a package's entry points, its kind and its JSDoc, read by the TypeScript compiler. */
function apiReference(pkg, program) {
  const entries = entriesOf(pkg);
  const checker = program.getTypeChecker();
  const lines = [`# ${pkg.manifest.name} — API`, "", pkg.manifest.description ?? "", ""];
  for (const { subpath, file } of entries) {
    const specifier = subpath === "." ? pkg.manifest.name : `${pkg.manifest.name}/${subpath.slice(2)}`;
    const moduleSymbol = checker.getSymbolAtLocation(program.getSourceFile(file));
    lines.push(`## \`${specifier}\``, "");
    const symbols = checker.getExportsOfModule(moduleSymbol).sort((a, b) => a.name.localeCompare(b.name, "en"));
    for (const symbol of symbols) {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      const kind =
        target.flags & ts.SymbolFlags.Class
          ? "class"
          : target.flags & ts.SymbolFlags.Function
            ? "function"
            : target.flags & (ts.SymbolFlags.Variable | ts.SymbolFlags.Enum)
              ? "constant"
              : "type";
      const doc = ts.displayPartsToString(target.getDocumentationComment(checker)).trim();
      lines.push(`### \`${symbol.name}\` <Badge type="info" text="${kind}" />`, "");
      if (doc) lines.push(vueSafe(doc.replace(/\n/g, " ")), "");
    }
  }
  return lines.join("\n");
}

export function generate() {
  // Everything here but the VitePress config is generated: cleared first, so a removed page goes too.
  mkdirSync(SITE, { recursive: true });
  for (const entry of readdirSync(SITE)) if (entry !== ".vitepress") rmSync(join(SITE, entry), { recursive: true });
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  page(join(SITE, "index.md"), vueSafe(rewriteLinks(readme, join(ROOT, "README.md"))));
  page(
    join(SITE, "first-agent.md"),
    vueSafe(
      rewriteLinks(
        [
          "# Your first agent",
          "",
          section(readme, "Your first agent").replace(/^## Your first agent\n/, ""),
          section(readme, "Packages"),
        ].join("\n"),
        join(ROOT, "README.md"),
      ),
    ),
  );
  page(
    join(SITE, "guides.md"),
    ["# Guides", "", ...GUIDES.map(([title, link]) => `- [${title}](${link})`), ""].join("\n"),
  );
  const all = packages();
  const program = programOf(all);
  const bench = ["# Benchmarks", "", "The tables each package's benchmark prints, as its README keeps them.", ""];
  for (const pkg of all) {
    const file = join(pkg.dir, "README.md");
    const text = readFileSync(file, "utf8");
    page(join(SITE, "packages", `${pkg.name}.md`), vueSafe(rewriteLinks(text, file)));
    page(join(SITE, "api", `${pkg.name}.md`), apiReference(pkg, program));
    const table = section(text, "Benchmark");
    if (table)
      bench.push(`## ${pkg.manifest.name}`, "", vueSafe(rewriteLinks(table.replace(/^## Benchmark\n/, ""), file)));
  }
  page(join(SITE, "bench.md"), bench.join("\n"));
  const llms = [
    "# @x agent core",
    "",
    "> A stateless, task-oriented agent core for TypeScript: auto mode, teacher mode, strategy memory.",
    "",
    "## Guides",
    "",
    ...GUIDES.map(([title, link]) => `- [${title}](${link.replace(/#.*/, "")}.md)`),
    "",
    "## Packages",
    "",
    ...all.map((pkg) => `- [${pkg.manifest.name}](/packages/${pkg.name}.md): ${pkg.manifest.description ?? ""}`),
    "",
    "## API reference",
    "",
    ...all.map((pkg) => `- [${pkg.manifest.name}](/api/${pkg.name}.md)`),
    "",
  ];
  writeFileSync(join(SITE, "public", "llms.txt"), llms.join("\n"));
  writeFileSync(
    join(SITE, "public", "llms-full.txt"),
    [readme, ...all.map((pkg) => readFileSync(join(pkg.dir, "README.md"), "utf8"))].join("\n\n"),
  );
  return all.map((pkg) => pkg.name);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const names = generate();
  console.log(`docs: ${names.length} package pages, ${names.length} API pages, guides, benchmarks, llms.txt`);
}
