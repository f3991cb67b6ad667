import { defineTool, type Permission, type Tool } from "@x/runner";
import { z } from "zod";
import { listFiles, readTextFile, writeTextFile } from "./files";
import { SandboxError } from "./paths";
import { shellConfinement, type ShellConfinement } from "./confinement";
import { describeShellResult, runShell } from "./shell";

export interface SandboxToolsOptions {
  /** Real path of the sandbox folder. */
  root: string;
  shellTimeoutMs: number;
  /** Extra environment for shell commands (the demo points HOME at the sandbox). */
  shellEnv?: Record<string, string>;
  /** How shell commands are held to the sandbox; default: bubblewrap when it works here, else not at all. */
  confine?: ShellConfinement;
}

/** How each sandbox tool is cleared: reads run, writes wait for a person, the shell goes to auto mode. */
export const SANDBOX_PERMISSIONS: Readonly<Record<string, Permission>> = Object.freeze({
  list_files: "allow",
  read_file: "allow",
  write_file: "ask",
  shell: "auto",
});

const text = (value: string, isError = false) => ({ content: [{ type: "text" as const, text: value }], isError });

/** A refusal the model can act on; anything else is a real fault and propagates. */
async function guarded(work: () => Promise<string>) {
  try {
    return text(await work());
  } catch (error) {
    if (error instanceof SandboxError) return text(`${error.code}: ${error.message}`, true);
    throw error;
  }
}

/** The four tools of the example, all confined to one folder. */
export function sandboxTools(options: SandboxToolsOptions): Tool[] {
  const { root, shellTimeoutMs, shellEnv } = options;
  const confine = options.confine ?? shellConfinement(root);
  return [
    defineTool({
      name: "list_files",
      description: "List files and folders in the sandbox, recursively. Paths are relative to the sandbox.",
      input: z.object({
        path: z.string().default(".").describe("Folder to list, relative to the sandbox"),
        depth: z.number().int().min(1).max(5).default(3).describe("How many levels deep"),
      }),
      readOnly: true,
      permission: SANDBOX_PERMISSIONS.list_files,
      execute: ({ path, depth }) => guarded(() => listFiles(root, path, depth)),
    }),
    defineTool({
      name: "read_file",
      description: "Read a text file in the sandbox.",
      input: z.object({ path: z.string().min(1).describe("File path, relative to the sandbox") }),
      readOnly: true,
      permission: SANDBOX_PERMISSIONS.read_file,
      execute: ({ path }) => guarded(() => readTextFile(root, path)),
    }),
    defineTool({
      name: "write_file",
      description: "Create or replace a text file in the sandbox (needs a person's approval).",
      input: z.object({
        path: z.string().min(1).describe("File path, relative to the sandbox"),
        content: z.string().describe("The whole new content"),
      }),
      permission: SANDBOX_PERMISSIONS.write_file,
      execute: ({ path, content }) => guarded(() => writeTextFile(root, path, content)),
    }),
    defineTool({
      name: "shell",
      description:
        "Run a shell command (/bin/sh -c) with the sandbox as working " +
        `directory. Killed after ${shellTimeoutMs / 1000}s. Gated by auto mode.` +
        (confine.kind === "bwrap" ? " Only the sandbox can be written (TMPDIR is the sandbox too)." : ""),
      input: z.object({ command: z.string().min(1).describe("The command line") }),
      permission: SANDBOX_PERMISSIONS.shell,
      // A little longer than our own kill timer, so the tool reports the timeout itself.
      timeoutMs: shellTimeoutMs + 2_000,
      execute: async ({ command }, ctx) => {
        const result = await runShell(command, {
          cwd: root,
          timeoutMs: shellTimeoutMs,
          signal: ctx.signal,
          confine,
          ...(shellEnv ? { env: shellEnv } : {}),
        });
        const failed = result.timedOut || result.aborted || result.exitCode !== 0;
        return text(describeShellResult(result, shellTimeoutMs), failed);
      },
    }),
  ];
}
