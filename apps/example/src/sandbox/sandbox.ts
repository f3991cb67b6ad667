import { mkdir, mkdtemp, realpath, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

export type SandboxOpenErrorCode = "sandbox_missing" | "sandbox_not_a_folder" | "sandbox_moved";

/** A sandbox folder the CLI will not act on; exit code 2 (the command line names the wrong folder). */
export class SandboxOpenError extends Error {
  constructor(
    readonly code: SandboxOpenErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "SandboxOpenError";
  }
}

export interface OpenSandboxOptions {
  /** Make the folder when it is missing: the CLI's own default folders, or `--create-sandbox`. */
  create: boolean;
  /** A temp folder's name prefix, when no folder is named. */
  prefix?: string;
}

/**
 * The real path of a sandbox folder; a fresh temp one when none is named. A named folder that does not
 * exist is refused unless `create` (a typo must not become an empty sandbox the agent then reports on),
 * and so is a path that is not a folder.
 */
export async function openSandbox(dir: string | undefined, options: OpenSandboxOptions): Promise<string> {
  if (dir === undefined) return realpath(await mkdtemp(join(tmpdir(), options.prefix ?? "x-agent-")));
  const path = resolve(dir);
  const info = await stat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    if (error.code === "ENOTDIR") throw inTheWay(path);
    throw error;
  });
  if (info && !info.isDirectory())
    throw new SandboxOpenError("sandbox_not_a_folder", `the sandbox must be a folder: ${path} is a file`);
  if (!info) {
    if (!options.create)
      throw new SandboxOpenError(
        "sandbox_missing",
        `no such sandbox folder: ${path} (check the path, or add --create-sandbox to make it)`,
      );
    await mkdir(path, { recursive: true }).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "EEXIST" || error.code === "ENOTDIR") throw inTheWay(path);
      throw error;
    });
  }
  return realpath(path);
}

/** A file where the path needs a folder (`/etc/hostname/box`). */
function inTheWay(path: string): SandboxOpenError {
  return new SandboxOpenError("sandbox_not_a_folder", `the sandbox must be a folder: a file is in the way of ${path}`);
}

/**
 * The folder a parked run's approved call will act on, as it was when the run parked: gone, or now
 * reached through a link to somewhere else, is refused — never made again or followed.
 */
export async function reopenSandbox(path: string): Promise<string> {
  const real = await openSandbox(path, { create: false });
  if (real !== path)
    throw new SandboxOpenError("sandbox_moved", `the sandbox ${path} now leads to ${real}: refusing to act there`);
  return real;
}
