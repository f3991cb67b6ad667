import { join } from "node:path";
import { routeTask } from "@x/council";
import type { McpToolset } from "@x/mcp";
import type { Approver } from "@x/runner";
import { lineApprover } from "../approver";
import { agentPrompt, agentTools } from "../delegate-tool";
import { mcpServers, openMcp, withMcp } from "../mcp";
import { storedSignIns } from "./mcp";
import type { Command } from "../args";
import { missingPrice, resolveEndpoint, type EndpointConfig } from "../endpoint";
import { executeTask } from "../execute";
import { ABORTED_EXIT, type CliIo } from "../io";
import { stateDir } from "../park-file";
import { saveParked } from "../parking";
import { viewPendingCall } from "../pending-call";
import { AGENT_SYSTEM_PROMPT, createRuntime } from "../runtime";
import { describeConfinement, shellConfinement } from "../sandbox/confinement";
import { openSandbox } from "../sandbox/sandbox";
import { SANDBOX_PERMISSIONS } from "../sandbox/tools";
import { checkStrategyStore, redactUrl } from "../store";
import { resultEvent } from "../summary";

const COUNCIL_HINT = "--mode council --file <path> runs a review council instead";

/** One task on real models through the real brains, with the same tools, gates and memory as the demo. */
export async function runCommand(command: Extract<Command, { name: "run" }>, io: CliIo): Promise<number> {
  const { config, apiKey } = resolveEndpoint(command, io.env);
  const state = stateDir(io.cwd);
  const sandbox = await openSandbox(command.sandbox ?? join(state, "sandbox"), {
    create: command.sandbox === undefined || command.createSandbox,
  });
  // A person at the terminal answers approvals live; otherwise a gated call parks to a file.
  const live =
    (command.ask ?? (io.inputIsTTY && io.interactive))
      ? lineApprover(io.input, io.emit, (request) => viewPendingCall(request, sandbox))
      : undefined;
  const mcp = await openMcp(mcpServers(command.mcp, command.mcpUrls, storedSignIns(io.env)));
  const stop = new AbortController();
  // Ctrl-C at an approval prompt parks that call (the run ends parked, resumable); anywhere else it
  // aborts the run, which ends `aborted` with what it spent so far.
  const unlisten = io.onInterrupt?.(() => {
    if (live?.waiting) {
      io.emit({ type: "note", text: "Ctrl-C: the call waiting for approval is parked (Ctrl-C again quits at once)" });
      live.park();
      return;
    }
    io.emit({ type: "note", text: "Ctrl-C: stopping the run (Ctrl-C again quits at once)" });
    live?.park();
    stop.abort();
  });
  try {
    return await runWith(command, io, config, apiKey, sandbox, live?.approver, mcp, stop.signal);
  } finally {
    unlisten?.();
    live?.close();
    await mcp?.close();
  }
}

async function runWith(
  command: Extract<Command, { name: "run" }>,
  io: CliIo,
  config: EndpointConfig,
  apiKey: string | undefined,
  sandbox: string,
  approver: Approver | undefined,
  mcp: McpToolset | undefined,
  signal: AbortSignal,
): Promise<number> {
  const state = stateDir(io.cwd);
  const runtime = await createRuntime(
    { mode: "endpoint", endpoint: config, ...(apiKey !== undefined ? { apiKey } : {}) },
    {
      emit: io.emit,
      teacherMode: command.teacher,
      streamText: io.streamText ?? false,
      cwd: io.cwd,
      env: io.env,
      ...(approver ? { approver } : {}),
    },
  );

  io.emit({ type: "banner", text: `x-agent run — ${config.provider} at ${redactUrl(config.baseUrl)}` });
  const classifier = config.classifierModel ?? "(not set: the core picks, see notices)";
  io.emit({
    type: "note",
    text:
      `student ${config.model} · teacher ` +
      `${command.teacher ? config.teacherModel : "(off)"} ` +
      `· classifier ${classifier}`,
  });
  io.emit({ type: "note", text: `sandbox: ${sandbox}` });
  io.emit({ type: "note", text: describeConfinement(shellConfinement(sandbox)) });
  // The same routing a host with both modes does; here it only advises, since --mode was not given.
  const route = command.mode === undefined ? routeTask({ objective: command.objective }) : undefined;
  if (route?.mode === "council")
    io.emit({
      type: "note",
      text: `routeTask: ${route.reason} — this run is the task loop; ${COUNCIL_HINT}`,
    });
  if (mcp)
    io.emit({
      type: "note",
      text: `MCP tools (auto mode judges each call): ${mcp
        .tools()
        .map((t) => t.name)
        .join(", ")}`,
    });
  const unpriced = missingPrice(config);
  if (unpriced) io.emit({ type: "note", text: unpriced });

  const spec = {
    objective: command.objective,
    model: runtime.roleModels.student,
    systemPrompt: agentPrompt(AGENT_SYSTEM_PROMPT),
    tools: withMcp(agentTools({ root: sandbox, shellTimeoutMs: command.shellTimeoutMs }), mcp),
    permissions: SANDBOX_PERMISSIONS,
    maxTurns: command.maxTurns ?? 20,
    ...(command.timeoutMs !== undefined ? { modelTimeoutMs: command.timeoutMs } : {}),
  };
  const teacher = command.teacher
    ? { storeTarget: command.store ?? join(state, "strategies.db"), scope: command.scope ?? "default" }
    : undefined;
  if (teacher) await checkStrategyStore(teacher.storeTarget);
  const result = await executeTask(runtime, spec, io.emit, teacher, signal);
  const done = resultEvent("run", result);
  io.emit(done);
  await saveParked(io, result, join(state, "parked"), {
    label: "run",
    sandbox,
    shellTimeoutMs: command.shellTimeoutMs,
    run: { mode: "endpoint", endpoint: config },
    ...(command.mcp.length + command.mcpUrls.length > 0
      ? { mcp: { commands: command.mcp, urls: command.mcpUrls } }
      : {}),
  });
  io.emit({ type: "summary", rows: [done.summary] });
  if (result.status === "aborted") return ABORTED_EXIT;
  return result.status === "completed" || result.status === "parked" ? 0 : 1;
}
