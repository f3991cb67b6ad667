#!/usr/bin/env node
// Runs the CLI straight from its TypeScript sources: tsx compiles on the fly and the `@x/source`
// export condition points every @x package at its src/index.ts, so no build step is needed.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const main = fileURLToPath(new URL("../src/main.ts", import.meta.url));
const tsx = import.meta.resolve("tsx");
// `pnpm example` runs this from the repository root (the app's `start` script from the app's folder);
// relative paths the user typed mean the folder they typed them in.
const { npm_package_name: pkg, npm_lifecycle_event: script } = process.env;
const launchedByPnpm = (pkg === "x-agent-core" && script === "example") || (pkg === "@x/example" && script === "start");
const cwd = launchedByPnpm && process.env.INIT_CWD ? process.env.INIT_CWD : process.cwd();

const child = spawn(process.execPath, ["--conditions=@x/source", "--import", tsx, main, ...process.argv.slice(2)], {
  stdio: "inherit",
  cwd,
});
// The child shares the terminal, so Ctrl-C reaches it directly; a SIGTERM sent to the launcher alone is passed on.
process.on("SIGINT", () => {});
process.on("SIGTERM", () => child.kill("SIGTERM"));
child.on("exit", (code, signal) => {
  if (signal) {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  } else {
    process.exit(code ?? 1);
  }
});
