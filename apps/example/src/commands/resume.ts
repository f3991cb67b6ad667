import { dirname, resolve } from "node:path";
import { pendingApproval, type TaskResult } from "@x/runner";
import type { Command } from "../args";
import { resolveApiKey } from "../endpoint";
import type { CliIo } from "../io";
import { agentTools } from "../delegate-tool";
import { invocation, shownPath } from "../io";
import { parkedRunOf, parkKey, readParkFile } from "../park-file";
import { viewPendingCall } from "../pending-call";
import { saveParked } from "../parking";
import { createRuntime, type RuntimeSource } from "../runtime";
import { describeConfinement, shellConfinement } from "../sandbox/confinement";
import { reopenSandbox } from "../sandbox/sandbox";
import { resultEvent } from "../summary";
import { mcpServers, openMcp, withMcp } from "../mcp";
import { storedSignIns } from "./mcp";

const DOING = { approve: "approving", deny: "denying", answer: "answering", decline: "declining" } as const;

/**
 * Finishes a parked run in this process: rebuilds the models and tools the park file names, hands
 * the runner the park and the decision, and reports the rest of the run. The runner refuses a park
 * whose signature does not match (edited, or signed with another key), one already resumed, or one
 * past its expiry.
 */
export async function resumeCommand(command: Extract<Command, { name: "resume" }>, io: CliIo): Promise<number> {
  const file = await readParkFile(command.file, await parkKey(io.cwd, io.env));
  const sandbox = await reopenSandbox(file.sandbox);
  // What a person decides is what they see: the call the tree waits on, whole, against the sandbox as it is now.
  const call = await viewPendingCall(pendingApproval(parkedRunOf(file, command.file)), sandbox);
  const { decision } = command;
  if (decision === undefined) {
    io.emit({ type: "banner", text: "x-agent resume — the parked call (nothing is decided)" });
    const again = `${invocation(io.env)} resume ${shownPath(io.cwd, resolve(io.cwd, command.file))}`;
    const decide = call.question ? `${again} --answer '{…}'   (or --decline)` : `${again} --approve   (or --deny)`;
    io.emit({ type: "pending_call", ...call, decide });
    return 0;
  }
  const demo = file.run.mode === "demo";
  let source: RuntimeSource;
  if (file.run.mode === "demo") {
    source = { mode: "demo", thinkMs: io.interactive ? 350 : 0 };
  } else {
    const apiKey = resolveApiKey(file.run.endpoint.provider, command, io.env);
    source = { mode: "endpoint", endpoint: file.run.endpoint, ...(apiKey !== undefined ? { apiKey } : {}) };
  }
  const runtime = await createRuntime(source, { emit: io.emit, teacherMode: false, cwd: io.cwd, env: io.env });
  // The MCP servers the run had, connected again: a call parked on one of their tools runs on it.
  const mcp = file.mcp ? await openMcp(mcpServers(file.mcp.commands, file.mcp.urls, storedSignIns(io.env))) : undefined;
  let result: TaskResult;
  try {
    // The run's own tools, `delegate` included, so a helper parked below it is rebuilt as it was planned.
    const own = agentTools({
      root: sandbox,
      shellTimeoutMs: file.shellTimeoutMs,
      ...(demo ? { shellEnv: { HOME: sandbox } } : {}),
    });
    io.emit({ type: "banner", text: `x-agent resume — ${DOING[decision]} the parked call` });
    io.emit({ type: "pending_call", decision, ...call });
    if (demo) io.emit({ type: "note", text: "This run was parked by the embedded demo: its models are scripted." });
    io.emit({ type: "note", text: describeConfinement(shellConfinement(sandbox)) });
    const reason = command.reason !== undefined ? { reason: command.reason } : {};
    result = await runtime.runner.resume(
      file.parked,
      decision === "answer" ? { decision, answer: command.answer ?? {} } : { decision, ...reason },
      { tools: withMcp(own, mcp), onToolResult: runtime.observer.onToolResult },
    );
  } finally {
    await mcp?.close();
  }
  const done = resultEvent(`${file.label} (resumed)`, result);
  io.emit(done);
  await saveParked(io, result, dirname(command.file), {
    label: file.label,
    sandbox: file.sandbox,
    shellTimeoutMs: file.shellTimeoutMs,
    run: file.run,
    ...(file.mcp ? { mcp: file.mcp } : {}),
  });
  io.emit({ type: "summary", rows: [done.summary] });
  return result.status === "completed" || result.status === "parked" ? 0 : 1;
}
