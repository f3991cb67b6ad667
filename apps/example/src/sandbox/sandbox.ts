import { mkdir, mkdtemp, realpath } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

/** Creates (when missing) and returns the real path of a sandbox folder; a temp one when none is named. */
export async function openSandbox(dir: string | undefined, prefix = "x-agent-"): Promise<string> {
  const path = dir === undefined ? await mkdtemp(join(tmpdir(), prefix)) : resolve(dir);
  await mkdir(path, { recursive: true });
  return realpath(path);
}
