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
  /** Report the model's text as it arrives (`x-agent run` for a person). */
  streamText?: boolean;
  /** Ctrl-C, as {@link CliEnvironment.onInterrupt}. */
  onInterrupt?: (listener: () => void) => () => void;
}

/** How the user started this CLI, so printed commands can be pasted back as they are. */
export function invocation(env: Readonly<Record<string, string | undefined>>): string {
  if (launchedByPnpmExample(env)) return "pnpm example";
  return launchedByPnpmBin(env) ? "pnpm x-agent" : "x-agent";
}

/**
 * `pnpm x-agent` (or `pnpm exec x-agent`) in the workspace: pnpm runs the bin with its user agent and
 * the workspace's package name set, and no script event (a script would set `npm_lifecycle_event`).
 */
function launchedByPnpmBin(env: Readonly<Record<string, string | undefined>>): boolean {
  return (
    (env.npm_config_user_agent ?? "").startsWith("pnpm/") &&
    env.PNPM_PACKAGE_NAME !== undefined &&
    env.npm_lifecycle_event === undefined
  );
}

/** `pnpm example` at the root (or the app's own `start` script) started this process. */
export function launchedByPnpmExample(env: Readonly<Record<string, string | undefined>>): boolean {
  return (
    (env.npm_package_name === "x-agent-core" && env.npm_lifecycle_event === "example") ||
    (env.npm_package_name === "@x/example" && env.npm_lifecycle_event === "start")
  );
}

/** A path as short as it can be shown from the folder the user is in. */
export function shownPath(cwd: string, path: string): string {
  const rel = relative(cwd, path);
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel) ? rel : path;
}

/** The shell's code for a process ended by Ctrl-C (128 + SIGINT). */
export const ABORTED_EXIT = 130;
