import { lstat, realpath } from "node:fs/promises";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";

export type SandboxErrorCode =
  "path_escape" | "not_found" | "not_a_file" | "not_a_directory" | "too_large" | "bad_path";

/** A tool call the sandbox refuses; the model sees `message`, the host can branch on `code`. */
export class SandboxError extends Error {
  constructor(
    readonly code: SandboxErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "SandboxError";
  }
}

function inside(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

/**
 * Resolves a path the model gave against the sandbox root and refuses anything that lands outside
 * it — `..` segments, absolute paths elsewhere, and symlinks (the deepest existing ancestor is
 * resolved through the file system, so a link pointing out of the sandbox is an escape too).
 * `root` must already be a real path (see {@link openSandbox}).
 */
export async function resolveInside(root: string, path: string): Promise<string> {
  if (path.includes("\u0000")) throw new SandboxError("bad_path", "path contains a NUL byte");
  const target = resolve(root, path.trim() === "" ? "." : path);
  if (!inside(root, target)) throw new SandboxError("path_escape", `"${path}" is outside the sandbox`);
  let existing = target;
  const missing: string[] = [];
  for (;;) {
    try {
      existing = await realpath(existing);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      // realpath says ENOENT for a dangling symlink too; writing through it would create its target, wherever that is.
      if (
        await lstat(existing).then(
          (info) => info.isSymbolicLink(),
          () => false,
        )
      ) {
        throw new SandboxError("path_escape", `"${path}" goes through a symlink that points to nothing`);
      }
      const parent = dirname(existing);
      missing.unshift(existing.slice(parent.length + 1));
      existing = parent;
    }
  }
  const real = missing.length > 0 ? join(existing, ...missing) : existing;
  if (!inside(root, real)) throw new SandboxError("path_escape", `"${path}" leads outside the sandbox`);
  return real;
}

/** The path as the model should see it: relative to the sandbox, `.` for the root. */
export function displayPath(root: string, absolute: string): string {
  const rel = relative(root, absolute);
  return rel === "" ? "." : rel.split(sep).join("/");
}
