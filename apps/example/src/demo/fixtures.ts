import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";

/** A small project the demo's tasks act on. Sizes are fixed so the space report has a clear winner. */
const FILES: Record<string, string | Buffer> = {
  "README.md":
    "# Acme API\n\nA tiny service the x-agent demo works on.\n\n- Adds a /health endpoint\n- Logs in JSON\n- Reads its settings from config/\n",
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
