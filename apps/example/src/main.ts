import { cli } from "./cli";

/** The shell's code for a process ended by Ctrl-C (128 + SIGINT). */
const INTERRUPTED = 130;

// A closed pipe (`x-agent demo | head`) is the reader saying it has enough: end quietly, no stack trace.
for (const stream of [process.stdout, process.stderr])
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(0);
    throw error;
  });

// The first Ctrl-C goes to the command (a run stops, or parks its pending approval, and reports
// what it cost); a second one, or one when no command listens, quits at once.
let interruptListener: (() => void) | undefined;
let interrupted = false;
process.on("SIGINT", () => {
  if (interrupted || !interruptListener) process.exit(INTERRUPTED);
  interrupted = true;
  interruptListener();
});

const code = await cli(process.argv.slice(2), {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  isTTY: process.stdout.isTTY === true,
  columns: process.stdout.columns,
  errIsTTY: process.stderr.isTTY === true,
  errColumns: process.stderr.columns,
  input: process.stdin,
  inputIsTTY: process.stdin.isTTY === true,
  env: process.env,
  cwd: process.cwd(),
  onInterrupt: (listener) => {
    interruptListener = listener;
    return () => {
      if (interruptListener === listener) interruptListener = undefined;
    };
  },
});
process.exitCode = code;
// A provider SDK's idle keep-alive socket must not hold the prompt: leave shortly after the work is done.
setTimeout(() => process.exit(code), 500).unref();
