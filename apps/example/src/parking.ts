import { join } from "node:path";
import { pendingApproval, type TaskResult } from "@x/runner";
import { invocation, shownPath, type CliIo } from "./io";
import { parkKey, writeParkFile, type ParkFile } from "./park-file";
import { viewPendingCall } from "./pending-call";

/**
 * Saves a parked run to `<dir>/<runId>.json` with what `x-agent resume` needs to rebuild it, and
 * reports where it is and the command that finishes it.
 */
export async function saveParked(
  io: CliIo,
  result: TaskResult,
  dir: string,
  meta: Omit<ParkFile, "kind" | "version" | "createdAt" | "parked">,
): Promise<string | undefined> {
  if (result.status !== "parked" || !result.parked) return undefined;
  const file = await writeParkFile(
    join(dir, `${result.runId}.json`),
    {
      kind: "x-agent.parked",
      version: 1,
      createdAt: new Date().toISOString(),
      ...meta,
      parked: result.parked,
    },
    await parkKey(io.cwd, io.env),
  );
  const command = `${invocation(io.env)} resume ${shownPath(io.cwd, file)}`;
  io.emit({
    type: "parked",
    file,
    show: command,
    resume: result.parked.pending.elicitation
      ? `${command} --answer '{…}'   (or --decline)`
      : `${command} --approve   (or --deny)`,
    // The call the tree waits on, wherever it is in it: never the delegating call above a sub-run's.
    ...(await viewPendingCall(pendingApproval(result.parked), meta.sandbox)),
  });
  return file;
}
