import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { BIN, cleanEnv } from "./cli-helpers";

/** A CLI process the test watches while it runs: output so far, and a way to wait for a line of it. */
export interface LiveProcess {
  child: ChildProcessWithoutNullStreams;
  readonly stdout: string;
  readonly stderr: string;
  /** Resolves once stdout+stderr (or the chosen stream) matches; rejects if the process ends first. */
  waitFor(pattern: RegExp, stream?: "stdout" | "stderr"): Promise<void>;
  /** Ctrl-C as a terminal sends it: SIGINT to the whole process group (the launcher and the CLI). */
  interrupt(): void;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function watch(child: ChildProcessWithoutNullStreams): LiveProcess {
  let stdout = "";
  let stderr = "";
  const waiters: Array<() => void> = [];
  const check = () => waiters.splice(0).forEach((waiter) => waiter());
  child.stdout.on("data", (chunk: Buffer) => ((stdout += chunk.toString("utf8")), check()));
  child.stderr.on("data", (chunk: Buffer) => ((stderr += chunk.toString("utf8")), check()));
  let ended = false;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("close", (code, signal) => {
      ended = true;
      check();
      resolve({ code, signal });
    }),
  );
  const live: LiveProcess = {
    child,
    get stdout() {
      return stdout;
    },
    get stderr() {
      return stderr;
    },
    waitFor: (pattern, stream) =>
      new Promise<void>((resolve, reject) => {
        const test = () => {
          const text = stream === "stdout" ? stdout : stream === "stderr" ? stderr : stdout + stderr;
          if (pattern.test(text)) return resolve();
          if (ended) return reject(new Error(`ended before ${pattern}:\n${stdout}\n--- stderr ---\n${stderr}`));
          waiters.push(test);
        };
        test();
      }),
    interrupt: () => process.kill(-child.pid!, "SIGINT"),
    exited,
  };
  return live;
}

/** `x-agent <args>` through the bin, in its own process group, stdin left open for answers. */
export function startCli(args: readonly string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): LiveProcess {
  const tmp = join(options.cwd, "tmp");
  mkdirSync(tmp, { recursive: true });
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: options.cwd,
    env: { ...(options.env ?? cleanEnv()), TMPDIR: tmp },
    stdio: "pipe",
    detached: true,
  });
  return watch(child);
}

/**
 * A shell command on a real terminal: `script` gives it a pseudo-terminal of `columns` columns, so
 * stdout and stderr are TTYs and a "\x03" written to it is the terminal's Ctrl-C.
 */
export function startOnTerminal(
  command: string,
  options: { cwd: string; env: NodeJS.ProcessEnv; columns: number },
): LiveProcess {
  const child = spawn("script", ["-qfec", `stty cols ${options.columns} rows 50; ${command}`, "/dev/null"], {
    cwd: options.cwd,
    env: options.env,
    stdio: "pipe",
  });
  return watch(child);
}

/** What a person would see: the last state of each line once carriage returns and colours are applied. */
export function screenLines(output: string): string[] {
  return (
    output
      .replace(/\r\n/g, "\n")
      .split("\n")
      .map((line) => line.split("\r").at(-1)!)
      // eslint-disable-next-line no-control-regex
      .map((line) => line.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, ""))
  );
}

export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
