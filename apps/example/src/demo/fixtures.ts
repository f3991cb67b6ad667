import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";

/** A bug planted in the change the review scenario's council reviews: its line, and what is wrong there. */
export interface PlantedBug {
  line: number;
  what: string;
}

/**
 * The change under review in the `review` scenario, with its answer key: two planted bugs, and a
 * line that only looks wrong (line 16: a missing `?page=` is 1, and line 17 answers 400 to a NaN).
 */
export const REVIEW_CHANGE = {
  path: "src/uploads.js",
  content: `import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";

const UPLOADS = "/srv/acme/uploads";
const PAGE_SIZE = 20;

/** GET /uploads/:name — sends one uploaded file. */
export async function sendUpload(req, res) {
  const file = join(UPLOADS, req.params.name);
  res.setHeader("content-type", "application/octet-stream");
  res.end(await readFile(file));
}

/** GET /uploads?page=N — one page of upload names, page 1 first. */
export async function listUploads(req, res) {
  const page = Number(req.query.page ?? 1);
  if (!Number.isInteger(page) || page < 1) return res.status(400).json({ error: "page must be 1 or more" });
  const names = (await readdir(UPLOADS)).sort();
  const start = page * PAGE_SIZE;
  res.json({ page, names: names.slice(start, start + PAGE_SIZE) });
}
`,
  planted: [
    { line: 9, what: "path traversal: a name with ../ segments reads any file the server can" },
    { line: 19, what: "off by one page: page 1 starts at the 21st name" },
  ] satisfies PlantedBug[],
};

/** A small project the demo's tasks act on. Sizes are fixed so the space report has a clear winner. */
const FILES: Record<string, string | Buffer> = {
  [REVIEW_CHANGE.path]: REVIEW_CHANGE.content,
  "README.md":
    "# Acme API\n\nA tiny service the x-agent demo works on.\n\n" +
    "- Adds a /health endpoint\n- Logs in JSON\n- Reads its settings from config/\n",
  "config/settings.json": `${JSON.stringify({ service: "acme-api", port: 8080, workers: 4 }, null, 2)}\n`,
  "config/logging.json": `${JSON.stringify({ level: "debug", format: "json" }, null, 2)}\n`,
  "migrations/001_create_users.sql": "CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT NOT NULL);\n",
  "src/server.js":
    "import { createServer } from 'node:http';\ncreateServer((req, res) => res.end('ok')).listen(8080);\n",
  "build/bundle.js": "/* bundle */\n".repeat(3_000),
  "build/bundle.js.map": `{"version":3,"mappings":"${"AAAA,".repeat(40_000)}"}\n`,
  "build/assets/logo.svg": `<svg xmlns="http://www.w3.org/2000/svg">${"<rect/>".repeat(500)}</svg>\n`,
};

export async function writeFixtures(root: string): Promise<void> {
  for (const [path, content] of Object.entries(FILES)) {
    const target = join(root, path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, content);
  }
}
