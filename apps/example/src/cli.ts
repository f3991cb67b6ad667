import { ParkedRunError } from "@x/runner";
import { redactSecrets } from "@x/brain-kit";
import { parseCommandLine, UsageError, type Command } from "./args";
import { helpText, scenariosText } from "./commands/help";
import type { CliIo } from "./io";
import { ParkFileError } from "./park-file";
import { SandboxOpenError } from "./sandbox/sandbox";
import { StoreOpenError } from "./store";
import { humanSink, jsonSink } from "./render/human";
import { SCENARIOS } from "./demo/scenarios";

export interface CliEnvironment {
  out: (text: string) => void;
  err: (text: string) => void;
  /** stdout is a terminal. */
  isTTY: boolean;
  /** stderr is a terminal, and how wide (where `run` shows its progress). */
  errIsTTY?: boolean;
  errColumns?: number;
  columns?: number;
  /**
   * Ctrl-C: calls `listener` on the first one while it is registered (a second one quits at once);
   * returns the unregister function. Absent in tests that run the CLI in-process.
   */
  onInterrupt?: (listener: () => void) => () => void;
  input: NodeJS.ReadableStream;
  inputIsTTY: boolean;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
}

/**
 * Exit codes: 0 done (or parked), 1 the run or the demo did not end as it should, 2 a bad command line
 * (a sandbox folder that is missing or not a folder included).
 */
export async function cli(argv: readonly string[], rawHost: CliEnvironment): Promise<number> {
  // Every byte the CLI prints goes through here: a key a model, a tool or an error echoes is shown as [redacted].
  const secrets = secretsOf(argv, rawHost.env);
  const host: CliEnvironment = {
    ...rawHost,
    out: (text) => rawHost.out(redactSecrets(text, secrets)),
    err: (text) => rawHost.err(redactSecrets(text, secrets)),
  };
  let command: Command;
  try {
    command = parseCommandLine(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return usageFailure(host, error);
  }
  if (command.name === "help") {
    host.out(command.json ? `${JSON.stringify({ type: "help", text: helpText(command) })}\n` : helpText(command));
    return 0;
  }
  if (command.name === "scenarios") {
    host.out(
      command.json
        ? `${JSON.stringify(SCENARIOS.map(({ name, title, about }) => ({ name, title, about })))}\n`
        : scenariosText(),
    );
    return 0;
  }
  // `run` keeps stdout for the model's answer, streamed as it arrives (`x-agent run … > answer.txt`);
  // its progress goes to stderr, and so does a `resume` that decides and runs on, and `enqueue`'s (its
  // stdout is the task's id). The demo, and a `resume` that only shows the parked call, use stdout.
  const split =
    command.name === "run" ||
    command.name === "enqueue" ||
    (command.name === "resume" && command.decision !== undefined);
  const progressTTY = split ? host.errIsTTY === true : host.isTTY;
  const columns = split ? host.errColumns : host.columns;
  const sink = command.json
    ? jsonSink(host.out)
    : humanSink({
        write: split ? host.err : host.out,
        ...(split ? { text: host.out } : {}),
        error: host.err,
        tty: progressTTY,
        color: progressTTY && !host.env.NO_COLOR,
        inputEchoes: host.inputIsTTY,
        ...(progressTTY && columns ? { columns } : {}),
      });
  const io: CliIo = {
    cwd: host.cwd,
    env: host.env,
    emit: (event) => sink.emit(event),
    interactive: progressTTY && !command.json,
    input: host.input,
    inputIsTTY: host.inputIsTTY,
    // `--json` carries the deltas too (`text_delta` lines); the `turn` line with the whole text still follows.
    streamText: split,
    ...(host.onInterrupt ? { onInterrupt: host.onInterrupt } : {}),
  };
  try {
    switch (command.name) {
      // Loaded on demand: help stays instant, and a demo never loads a provider SDK or a database driver.
      case "demo":
        return await (await import("./commands/demo")).demoCommand(command, io);
      case "run":
        return command.mode === "council"
          ? await (await import("./commands/review")).reviewCommand(command, io)
          : await (await import("./commands/run")).runCommand(command, io);
      case "resume":
        return await (await import("./commands/resume")).resumeCommand(command, io);
      case "worker":
        return await (await import("./commands/worker")).workerCommand(command, io);
      case "enqueue":
        return await (await import("./commands/enqueue")).enqueueCommand(command, io);
      case "task":
        return await (await import("./commands/task")).taskCommand(command, io);
      case "studio":
        return await (await import("./commands/studio")).studioCommandRun(command, io);
      case "eval":
        return await (await import("./commands/eval")).evalCommandRun(command, io);
      case "mcp":
        return await (await import("./commands/mcp")).mcpCommandRun(command, io);
    }
  } catch (error) {
    sink.close();
    if (error instanceof UsageError) return usageFailure(host, error);
    // The command line names a folder that cannot be the sandbox: a bad command line, said with its code.
    if (error instanceof SandboxOpenError) {
      io.emit({ type: "error", code: error.code, message: error.message });
      return 2;
    }
    if (error instanceof ParkedRunError || error instanceof ParkFileError || error instanceof StoreOpenError) {
      io.emit({ type: "error", code: error.code, message: error.message });
      return 1;
    }
    const code = typeof (error as { code?: unknown }).code === "string" ? (error as { code: string }).code : "internal";
    io.emit({ type: "error", code, message: error instanceof Error ? error.message : String(error) });
    return 1;
  } finally {
    sink.close();
  }
}

function usageFailure(host: CliEnvironment, error: UsageError): number {
  host.err(`x-agent: ${error.message}\nRun "x-agent --help" for usage.\n`);
  return 2;
}

/** The credentials this process knows: `--api-key` (either spelling), the providers' key variables, the park key. */
function secretsOf(argv: readonly string[], env: CliEnvironment["env"]): string[] {
  const secrets = [env.OPENAI_API_KEY, env.ANTHROPIC_API_KEY, env.X_AGENT_PARK_KEY]
    .filter((v): v is string => v !== undefined)
    .map((v) => v.trim());
  argv.forEach((arg, i) => {
    if (arg === "--api-key" && argv[i + 1] !== undefined) secrets.push(argv[i + 1]!.trim());
    else if (arg.startsWith("--api-key=")) secrets.push(arg.slice("--api-key=".length).trim());
  });
  // A real key is long; a short test value like "k" would shred ordinary words.
  return secrets.filter((secret) => secret.length >= 8);
}
