import { access, readdir } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { pendingApproval, type ApprovalDecision, type RunEvent, type TaskResult } from "@x/runner";
import type { ApprovalInbox, InboxItem, RunSource, RunSummary } from "@x/studio";
import { resultEvents } from "@x/ui-stream";
import { agentTools } from "./delegate-tool";
import { resolveApiKey } from "./endpoint";
import type { CliIo } from "./io";
import { parkedRunOf, parkKey, readParkFile, stateDir, type ParkFile } from "./park-file";
import { saveParked } from "./parking";
import { viewPendingCall } from "./pending-call";
import { inboxItemOf } from "./studio-inbox-item";
import { createRuntime, type RuntimeSource } from "./runtime";
import { reopenSandbox } from "./sandbox/sandbox";

interface Found {
  path: string;
  file: ParkFile;
  parkId: string;
  decided: boolean;
}

/**
 * The CLI's park files (`x-agent run` keeps them in `.x-agent/parked`; a demo prints its folder) as the studio's
 * inbox and run list. A decision resumes the run here, as `x-agent resume` does: same key, same ledger, same
 * tools, so a park decided in the studio cannot be decided again from the CLI, or the other way round.
 */
export function parkFolders(io: CliIo, folders: readonly string[]): { inbox: ApprovalInbox; runs: RunSource } {
  // The file ledger `x-agent resume` claims parks in marks a decided one `<parkId>.claimed`: it waits no more.
  const claimed = (parkId: string) =>
    access(join(stateDir(io.cwd), "park-ledger", `${parkId}.claimed`)).then(
      () => true,
      () => false,
    );
  const scan = async (): Promise<Found[]> => {
    const key = await parkKey(io.cwd, io.env);
    const found: Found[] = [];
    for (const folder of folders) {
      const names = await readdir(resolve(io.cwd, folder)).catch(() => [] as string[]);
      for (const name of names.filter((n) => n.endsWith(".json")).sort()) {
        const path = resolve(io.cwd, folder, name);
        // A file this key did not sign, or not a park file: not shown, never decided.
        const file = await readParkFile(path, key).catch(() => undefined);
        if (!file) continue;
        const parked = parkedRunOf(file, path);
        found.push({ path, file, parkId: parked.parkId, decided: await claimed(parked.parkId) });
      }
    }
    return found;
  };
  return {
    inbox: {
      list: async () => Promise.all((await scan()).filter((found) => !found.decided).map(inboxItem)),
      decide: async (id, decision, emit) => {
        const found = (await scan()).find((candidate) => candidate.parkId === id);
        if (!found) throw new Error(`no park file holds park ${id}`);
        return decide(io, found, decision, emit);
      },
    },
    runs: { name: "runs", list: async () => (await scan()).map(runSummary) },
  };
}

async function inboxItem({ path, file }: Found): Promise<InboxItem> {
  const parked = parkedRunOf(file, path);
  // The diff is against the sandbox as it is now; a sandbox that moved or went away shows the call without one.
  const sandbox = await reopenSandbox(file.sandbox).catch(() => undefined);
  const view = await viewPendingCall(pendingApproval(parked), sandbox);
  return inboxItemOf(parked, view, {
    runId: parked.spec.runId,
    label: file.label,
    costMicroUsd: parked.state.stats.usage.cost.total,
  });
}

function runSummary({ path, file, decided }: Found): RunSummary {
  const parked = parkedRunOf(file, path);
  const { usage } = parked.state.stats;
  return {
    id: parked.spec.runId,
    label: file.label,
    status: decided ? "decided" : "parked",
    source: "runs",
    at: new Date(parked.createdAt).toISOString(),
    tokens: usage.totalTokens,
    costMicroUsd: usage.cost.total,
  };
}

/** `x-agent resume <file> --approve|--deny`, in the studio's process, its events sent to the live view. */
async function decide(
  io: CliIo,
  { path, file }: Found,
  decision: ApprovalDecision,
  emit: (event: RunEvent) => void,
): Promise<TaskResult> {
  const sandbox = await reopenSandbox(file.sandbox);
  const demo = file.run.mode === "demo";
  let source: RuntimeSource;
  if (file.run.mode === "demo") source = { mode: "demo", thinkMs: 0 };
  else {
    const apiKey = resolveApiKey(file.run.endpoint.provider, {}, io.env);
    source = { mode: "endpoint", endpoint: file.run.endpoint, ...(apiKey !== undefined ? { apiKey } : {}) };
  }
  const quiet: CliIo = { ...io, emit: () => undefined, interactive: false };
  const runtime = await createRuntime(source, { emit: quiet.emit, teacherMode: false, cwd: io.cwd, env: io.env });
  const tools = agentTools({
    root: sandbox,
    shellTimeoutMs: file.shellTimeoutMs,
    ...(demo ? { shellEnv: { HOME: sandbox } } : {}),
  });
  const parked = parkedRunOf(file, path);
  const result = await runtime.runner.resume(file.parked, decision, {
    tools,
    onToolResult: runtime.observer.onToolResult,
  });
  const decided = { toolCallId: parked.pending.toolCallId, decision: decision.decision };
  for (const event of resultEvents(result, parked.messages.length, decided, { start: true, repeatDecidedCall: true }))
    emit(event);
  // Parked again: saved beside the first, as `x-agent resume` does, so the inbox shows the next call.
  await saveParked(quiet, result, dirname(path), {
    label: file.label,
    sandbox: file.sandbox,
    shellTimeoutMs: file.shellTimeoutMs,
    run: file.run,
  });
  return result;
}
