import { isAbsolute, relative } from "node:path";
import type { AppEvent } from "./render/events";

/** What a command needs from the outside world; tests and the child-process resume pass their own. */
export interface CliIo {
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  emit: (event: AppEvent) => void;
  /** stdout is a terminal and the output is for a person: pace the scripted models, spin. */
  interactive: boolean;
  /** Where a person's answers come from, and whether it is a terminal. */
  input: NodeJS.ReadableStream;
  inputIsTTY: boolean;
}

/** How the user started this CLI, so printed commands can be pasted back as they are. */
export function invocation(env: Readonly<Record<string, string | undefined>>): string {
  return env.npm_package_name === "@x/example" && env.npm_lifecycle_event === "start" ? "pnpm example" : "x-agent";
}

/** A path as short as it can be shown from the folder the user is in. */
export function shownPath(cwd: string, path: string): string {
  const rel = relative(cwd, path);
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel) ? rel : path;
}
