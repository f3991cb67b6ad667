import { constants } from "node:fs";
import { mkdir, open, readdir, stat, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { displayPath, resolveInside, SandboxError } from "./paths";

/** Entries skipped by listings: large, generated, or not the model's business. */
const SKIPPED = new Set(["node_modules", ".git"]);
export const MAX_LIST_ENTRIES = 200;
export const MAX_READ_BYTES = 64 * 1024;
export const MAX_WRITE_BYTES = 256 * 1024;

/** Lists a folder of the sandbox as indented lines (`dir/`, `file  123 B`), depth-first. */
export async function listFiles(root: string, path: string, depth: number): Promise<string> {
  const start = await resolveInside(root, path);
  const info = await stat(start).catch(() => undefined);
  if (!info) throw new SandboxError("not_found", `no such folder: ${path}`);
  if (!info.isDirectory()) throw new SandboxError("not_a_directory", `${path} is a file, not a folder`);
  const lines: string[] = [];
  let truncated = false;
  const walk = async (dir: string, level: number): Promise<void> => {
    const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    ); // code-point order: the same on every machine
    for (const entry of entries) {
      if (SKIPPED.has(entry.name)) continue;
      if (lines.length >= MAX_LIST_ENTRIES) {
        truncated = true;
        return;
      }
      const full = join(dir, entry.name);
      const shown = displayPath(root, full);
      if (entry.isDirectory()) {
        lines.push(`${shown}/`);
        if (level < depth) await walk(full, level + 1);
      } else {
        const size = entry.isFile() ? (await stat(full)).size : undefined;
        lines.push(size === undefined ? shown : `${shown}  ${size} B`);
      }
    }
  };
  await walk(start, 1);
  if (lines.length === 0) return `${displayPath(root, start)} is empty`;
  return truncated ? `${lines.join("\n")}\n… (first ${MAX_LIST_ENTRIES} entries)` : lines.join("\n");
}

/** Reads a text file of the sandbox, cut at {@link MAX_READ_BYTES}. */
export async function readTextFile(root: string, path: string): Promise<string> {
  const target = await resolveInside(root, path);
  const info = await stat(target).catch(() => undefined);
  if (!info) throw new SandboxError("not_found", `no such file: ${path}`);
  if (!info.isFile()) throw new SandboxError("not_a_file", `${path} is not a file`);
  // Only the part that is shown is read: a multi-gigabyte file must not be loaded whole.
  const handle = await open(target, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    const buffer = Buffer.alloc(MAX_READ_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, MAX_READ_BYTES, 0);
    const text = buffer.subarray(0, bytesRead).toString("utf8");
    return info.size <= MAX_READ_BYTES ? text : `${text}\n… (cut at ${MAX_READ_BYTES} of ${info.size} bytes)`;
  } finally {
    await handle.close();
  }
}

/** Writes (creates or replaces) a text file of the sandbox, making its folders. */
export async function writeTextFile(root: string, path: string, content: string): Promise<string> {
  const bytes = Buffer.byteLength(content, "utf8");
  if (bytes > MAX_WRITE_BYTES)
    throw new SandboxError("too_large", `refusing to write ${bytes} bytes (limit ${MAX_WRITE_BYTES})`);
  const target = await resolveInside(root, path);
  if (target === root) throw new SandboxError("not_a_file", "cannot write to the sandbox folder itself");
  await mkdir(dirname(target), { recursive: true });
  // The parent may have been created through a link that resolves elsewhere: check again.
  await resolveInside(root, displayPath(root, target));
  // O_NOFOLLOW: a symlink put in place since the check is refused rather than followed.
  try {
    await writeFile(target, content, {
      encoding: "utf8",
      flag: constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW,
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ELOOP")
      throw new SandboxError("path_escape", `"${path}" is a symlink`);
    throw error;
  }
  return `wrote ${bytes} bytes to ${displayPath(root, target)}`;
}
