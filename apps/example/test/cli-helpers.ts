import { spawn } from "node:child_process";
import { mkdir, mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { AppEvent } from "../src/render/events";

export const BIN = fileURLToPath(new URL("../bin/x-agent.mjs", import.meta.url));
export const REPO_ROOT = fileURLToPath(new URL("../../..", import.meta.url));

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The environment a newcomer's shell would have: no provider variables, no pnpm script context. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (/^(OPENAI_|ANTHROPIC_|X_AGENT_|npm_|INIT_CWD$|NO_COLOR$|FORCE_COLOR$)/.test(name)) continue;
    env[name] = value;
  }
  return { ...env, ...extra };
}

/** Runs a command as a child process and collects its output. */
export function spawnCollect(
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; stdin?: string },
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...args], { cwd: options.cwd, env: options.env ?? cleanEnv(), stdio: "pipe" });
    // No answer to give: the child sees stdin end at once, as with `< /dev/null`.
    child.stdin.end(options.stdin ?? "");
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * `x-agent <args>` through the published bin, exactly as a user runs it. The CLI's own temp folders
 * (the demo's sandbox and stores) go under `cwd`, so removing `cwd` removes everything a test made.
 */
export async function runCli(
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; stdin?: string },
): Promise<CliRun> {
  const tmp = join(options.cwd, "tmp");
  await mkdir(tmp, { recursive: true });
  return spawnCollect(process.execPath, [BIN, ...args], {
    ...options,
    env: { ...(options.env ?? cleanEnv()), TMPDIR: tmp },
  });
}

/** `--json` output: every line, blank ones included, must be one JSON event — nothing else may be mixed in. */
export function parseEvents(stdout: string): AppEvent[] {
  if (!stdout.endsWith("\n"))
    throw new Error(`--json output does not end with a newline: ${JSON.stringify(stdout.slice(-80))}`);
  return stdout
    .slice(0, -1)
    .split("\n")
    .map((line) => {
      const event = JSON.parse(line) as AppEvent;
      if (typeof event !== "object" || event === null || typeof event.type !== "string")
        throw new Error(`not an event: ${line}`);
      return event;
    });
}

/** The events of each scenario, keyed by its name (events before the first scenario under ""). */
export function byScenario(events: readonly AppEvent[]): Map<string, AppEvent[]> {
  const groups = new Map<string, AppEvent[]>([["", []]]);
  let current = "";
  for (const event of events) {
    if (event.type === "scenario") {
      current = event.name;
      groups.set(current, []);
    }
    groups.get(current)!.push(event);
  }
  return groups;
}

export function ofType<T extends AppEvent["type"]>(
  events: readonly AppEvent[],
  type: T,
): Array<Extract<AppEvent, { type: T }>> {
  return events.filter((e): e is Extract<AppEvent, { type: T }> => e.type === type);
}

const made: string[] = [];

/** A fresh folder for one test; {@link removeTempDirs} deletes them all. */
export async function tempDir(prefix: string): Promise<string> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), prefix)));
  made.push(dir);
  return dir;
}

export async function removeTempDirs(): Promise<void> {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
}
