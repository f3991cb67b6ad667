import { spawn } from "node:child_process";
import { bwrapArgs, type ShellConfinement } from "./confinement";

export const MAX_SHELL_OUTPUT = 16 * 1024;

export interface ShellResult {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  aborted: boolean;
  /** stdout and stderr interleaved as they arrived, cut at {@link MAX_SHELL_OUTPUT}. */
  output: string;
}

/** The only variables a command inherits: the model must not be able to `env` its way to an API key or the park key. */
const INHERITED = /^(PATH|HOME|USER|LOGNAME|SHELL|LANG|LANGUAGE|LC_[A-Z_]+|TERM|TMPDIR|TZ)$/;

function shellBaseEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined && INHERITED.test(name)) out[name] = value;
  return out;
}

/**
 * Runs one command with `/bin/sh -c` in `cwd` — inside bubblewrap when `confine` says so, where `cwd`
 * is the only writable folder. The command gets its own process group so a timeout or an abort kills
 * everything it started, not just the shell. Never rejects for a failing command: a non-zero exit, a
 * timeout or an abort is part of the result.
 */
export function runShell(
  command: string,
  options: {
    cwd: string;
    timeoutMs: number;
    signal?: AbortSignal;
    env?: Record<string, string>;
    confine?: ShellConfinement;
  },
): Promise<ShellResult> {
  return new Promise((resolvePromise, reject) => {
    const confined = options.confine?.kind === "bwrap";
    const [file, args] = confined
      ? ["bwrap", [...bwrapArgs(options.cwd), "/bin/sh", "-c", command]]
      : ["/bin/sh", ["-c", command]];
    const child = spawn(file, args, {
      cwd: options.cwd,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      // Confined, the sandbox is the only writable folder: temp files go there rather than fail.
      env: {
        ...shellBaseEnv(process.env),
        ...options.env,
        PWD: options.cwd,
        ...(confined ? { TMPDIR: options.cwd } : {}),
      },
    });
    let output = "";
    let cut = false;
    const take = (chunk: Buffer) => {
      if (output.length >= MAX_SHELL_OUTPUT) {
        cut = true;
        return;
      }
      output += chunk.toString("utf8");
      if (output.length > MAX_SHELL_OUTPUT) {
        output = output.slice(0, MAX_SHELL_OUTPUT);
        cut = true;
      }
    };
    child.stdout.on("data", take);
    child.stderr.on("data", take);
    let timedOut = false;
    let aborted = false;
    const killGroup = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, options.timeoutMs);
    const onAbort = () => {
      aborted = true;
      killGroup();
    };
    if (options.signal?.aborted) onAbort();
    options.signal?.addEventListener("abort", onAbort, { once: true });
    child.on("error", (error) => {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      reject(error);
    });
    child.on("close", (exitCode, signal) => {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      resolvePromise({
        exitCode,
        signal,
        timedOut,
        aborted,
        output: cut ? `${output}\n… (output cut at ${MAX_SHELL_OUTPUT} characters)` : output,
      });
    });
  });
}

/** The text the model sees for a shell run. */
export function describeShellResult(result: ShellResult, timeoutMs: number): string {
  const head = result.timedOut
    ? `timed out after ${timeoutMs / 1000}s (killed)`
    : result.aborted
      ? "aborted"
      : result.exitCode !== null
        ? `exit code ${result.exitCode}`
        : `killed by ${result.signal}`;
  const body = result.output.trimEnd();
  return body === "" ? `${head} (no output)` : `${head}\n${body}`;
}
