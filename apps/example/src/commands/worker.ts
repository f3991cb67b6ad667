import { join } from "node:path";
import { createTaskQueue, createWorker } from "@x/queue-postgres";
import type { Command } from "../args";
import { resolveEndpoint } from "../endpoint";
import type { CliIo } from "../io";
import { stateDir } from "../park-file";
import { createRuntime } from "../runtime";
import { describeConfinement, shellConfinement } from "../sandbox/confinement";
import { openSandbox } from "../sandbox/sandbox";
import { sandboxTools } from "../sandbox/tools";
import { redactUrl } from "../store";

/** A queue worker: the run command's runtime and tools, fed by the PostgreSQL queue until Ctrl-C. */
export async function workerCommand(command: Extract<Command, { name: "worker" }>, io: CliIo): Promise<number> {
  const sandbox = await openSandbox(command.sandbox ?? join(stateDir(io.cwd), "sandbox"), {
    create: command.sandbox === undefined || command.createSandbox,
  });
  const endpoint = command.scripted ? undefined : resolveEndpoint(command, io.env);
  const runtime = await createRuntime(
    endpoint
      ? {
          mode: "endpoint",
          endpoint: endpoint.config,
          ...(endpoint.apiKey !== undefined ? { apiKey: endpoint.apiKey } : {}),
        }
      : { mode: "demo", thinkMs: 0 },
    { emit: io.emit, teacherMode: false, cwd: io.cwd, env: io.env },
  );
  const queue = createTaskQueue({ connectionString: command.queue });
  await queue.start();
  const { parkLedger: _ledger, parkKey, ...deps } = runtime.deps;
  const worker = createWorker({
    queue,
    runner: { ...deps, parkKey: parkKey! },
    tools: sandboxTools({ root: sandbox, shellTimeoutMs: command.shellTimeoutMs }),
    concurrency: command.concurrency,
  });
  await worker.start();
  io.emit({ type: "banner", text: `x-agent worker ${worker.workerId} — queue at ${redactUrl(command.queue)}` });
  io.emit({ type: "note", text: `sandbox: ${sandbox} · ${command.concurrency} tasks at once · Ctrl-C stops` });
  io.emit({ type: "note", text: describeConfinement(shellConfinement(sandbox)) });
  await new Promise<void>((resolve) => {
    // Ctrl-C through the CLI's own handler, which quits at once when no command listens (and then
    // no task would be handed back); a deploy's SIGTERM straight from the process. The first one
    // stops the worker; both are then let go, so a second Ctrl-C quits at once.
    const stop = () => {
      offInterrupt();
      process.off("SIGTERM", stop);
      resolve();
    };
    let offInterrupt: () => void = () => process.off("SIGINT", stop);
    if (io.onInterrupt) offInterrupt = io.onInterrupt(stop);
    else process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  io.emit({ type: "note", text: "stopping: the tasks in flight finish (or are handed to another worker)" });
  await worker.stop();
  await queue.stop();
  return 0;
}
