import { spawn } from "node:child_process";
import { mkdtemp, readdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { UsageError, type Command } from "../args";
import { writeFixtures } from "../demo/fixtures";
import type { DemoContext } from "../demo/scenario";
import { SCENARIOS } from "../demo/scenarios";
import { invocation, shownPath, type CliIo } from "../io";
import type { AppEvent, RunSummary } from "../render/events";
import { describeConfinement, shellConfinement } from "../sandbox/confinement";
import { openSandbox } from "../sandbox/sandbox";
import { checkStrategyStore } from "../store";

/** Pause before each scripted reply when a person watches; none in a pipe or a test. */
const THINK_MS = 350;

export async function demoCommand(command: Extract<Command, { name: "demo" }>, io: CliIo): Promise<number> {
  const chosen = command.scenario === undefined ? SCENARIOS : SCENARIOS.filter((s) => s.name === command.scenario);
  if (chosen.length === 0)
    throw new UsageError(
      `unknown scenario "${command.scenario}" (scenarios: ${SCENARIOS.map((s) => s.name).join(", ")})`,
    );

  // The demo writes its own project into the sandbox (README.md, config/…) and approves a write: never over a
  // user's files.
  if (command.sandbox !== undefined && (await readdir(command.sandbox).catch(() => [])).length > 0) {
    throw new UsageError(
      "--sandbox for the demo must be a new or empty folder (it " +
        `writes its own files there): ${command.sandbox} is not empty`,
    );
  }
  const home = await mkdtemp(join(tmpdir(), "x-agent-demo-"));
  const sandbox = await openSandbox(command.sandbox ?? join(home, "sandbox"), {
    create: command.sandbox === undefined || command.createSandbox,
  });
  await writeFixtures(sandbox);
  const ctx: DemoContext = {
    io,
    sandbox,
    shellTimeoutMs: command.shellTimeoutMs,
    thinkMs: io.interactive ? THINK_MS : 0,
    storeTarget: command.store ?? join(home, "strategies.db"),
    scope: command.scope ?? "demo",
    parkDir: join(home, "parked"),
    parkOnly: command.parkOnly,
    resumeElsewhere: (file) => resumeInChild(io, file),
  };

  if (command.store !== undefined) await checkStrategyStore(command.store);

  io.emit({ type: "banner", text: "x-agent demo — the @x agent core, end to end" });
  io.emit({
    type: "note",
    text: [
      "The models in this demo are SCRIPTED: no network, no API key. Each",
      "reply is computed from what the model is sent; the runner, auto",
      "mode, teacher mode and the strategy store are the real packages.",
    ].join(" "),
  });
  io.emit({ type: "note", text: `sandbox: ${sandbox}` });
  io.emit({ type: "note", text: describeConfinement(shellConfinement(sandbox)) });

  const rows: RunSummary[] = [];
  let ok = true;
  for (const scenario of chosen) {
    io.emit({ type: "scenario", name: scenario.name, title: scenario.title, about: scenario.about });
    const outcome = await scenario.run(ctx);
    rows.push(...outcome.rows);
    if (!outcome.ok) {
      ok = false;
      io.emit({
        type: "error",
        code: "scenario_unexpected",
        message: `scenario "${scenario.name}" did not end as it should`,
      });
    }
  }
  io.emit({ type: "summary", rows });
  io.emit({
    type: "note",
    text:
      `Same wiring on your own models: ${invocation(io.env)} run "<objective>" --base-url ` +
      "<url> --api-key <key> --model <id>  (or the OPENAI_* / ANTHROPIC_* variables)",
  });
  return ok ? 0 : 1;
}

/**
 * Finishes a parked run the way a person would later: `x-agent resume <file> --approve` in a new
 * process that has only the park file and the signing key. Its JSON events are shown here as ours.
 */
async function resumeInChild(io: CliIo, file: string): Promise<RunSummary | undefined> {
  io.emit({
    type: "note",
    text: `$ ${invocation(io.env)} resume ${shownPath(io.cwd, file)} --approve    ← a new process, later`,
  });
  const script = process.argv[1];
  if (script === undefined) throw new Error("cannot find the CLI's own entry point to resume in a child process");
  const child = spawn(process.execPath, [...process.execArgv, script, "resume", file, "--approve", "--json"], {
    cwd: io.cwd,
    env: process.env,
    stdio: ["ignore", "pipe", "inherit"],
  });
  let row: RunSummary | undefined;
  const lines = createInterface({ input: child.stdout });
  for await (const line of lines) {
    let event: AppEvent;
    try {
      event = JSON.parse(line) as AppEvent;
    } catch {
      continue;
    }
    // Our own table closes the demo; our own banner opened it.
    if (event.type === "summary" || event.type === "banner") continue;
    if (event.type === "result") row = event.summary;
    io.emit(event);
  }
  const code = await new Promise<number | null>((resolve) =>
    child.exitCode !== null ? resolve(child.exitCode) : child.on("close", resolve),
  );
  if (code !== 0) io.emit({ type: "error", code: "resume_failed", message: `the resume process exited with ${code}` });
  return row;
}
