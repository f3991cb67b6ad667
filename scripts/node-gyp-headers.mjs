// Runs before `pnpm install` resolves anything (the root's `pnpm:devPreinstall`). When a native
// dependency finds no prebuilt binary (better-sqlite3 on a machine that cannot reach GitHub), it
// compiles with node-gyp, which downloads Node's headers unless `nodedir` is set — and pnpm does not
// pass `nodedir` from ~/.npmrc to it. Where this Node's own headers are installed beside it (a
// distribution package: /usr/bin/node with /usr/include/node), this points node-gyp's header cache
// for this exact version at them, which is what node-gyp itself would have downloaded. Anywhere else
// (an ordinary laptop with nvm or the official installer, Windows) it does nothing.
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";

/** node-gyp 9–12 marks a complete header folder with this number in `installVersion`. */
const INSTALL_VERSION = 11;

function cacheDir() {
  if (process.env.npm_config_devdir) return process.env.npm_config_devdir;
  if (process.platform === "darwin") return join(homedir(), "Library", "Caches", "node-gyp");
  if (process.platform === "linux") return join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "node-gyp");
  return undefined;
}

/** The headers installed with this Node binary, if their version is exactly this Node's. */
function localHeaders() {
  const dir = join(dirname(dirname(process.execPath)), "include", "node");
  let header;
  try {
    header = readFileSync(join(dir, "node_version.h"), "utf8");
  } catch {
    return undefined;
  }
  const part = (name) => header.match(new RegExp(`#define NODE_${name}_VERSION (\\d+)`))?.[1];
  const version = `${part("MAJOR")}.${part("MINOR")}.${part("PATCH")}`;
  return version === process.versions.node && existsSync(join(dir, "common.gypi")) ? dir : undefined;
}

function main() {
  if (process.env.npm_config_nodedir || process.release.name !== "node") return;
  const cache = cacheDir();
  const headers = localHeaders();
  if (!cache || !headers) return;
  const versionDir = join(cache, process.versions.node);
  if (existsSync(join(versionDir, "installVersion"))) return;
  const include = join(versionDir, "include");
  const target = join(include, "node");
  // A download that failed earlier leaves the folder behind, empty: replace it.
  if (existsSync(target) && readdirSync(target).length === 0) rmSync(target, { recursive: true });
  mkdirSync(include, { recursive: true });
  if (!existsSync(target)) symlinkSync(headers, target, "dir");
  writeFileSync(join(versionDir, "installVersion"), `${INSTALL_VERSION}\n`);
  console.log(`node-gyp will build against the Node ${process.versions.node} headers in ${headers}`);
}

try {
  main();
} catch (error) {
  // Never fail the install over this: node-gyp then downloads the headers as it always would.
  console.warn(`node-gyp-headers: ${error instanceof Error ? error.message : String(error)}`);
}
