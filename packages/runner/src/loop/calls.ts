import { assistantToolCalls } from "@x/llm-types";
import type { AssistantMessage, ToolCall, ToolResultMessage } from "@x/llm-types";
import type { ToolProgress } from "../vocabulary/define-tool";
import { loopGuardNote } from "../decisions/loop-guard";
import type { PendingCall } from "../vocabulary/park-schema";
import { gateCall } from "./permissions";
import type { RunContext } from "../state/run-context";
import { childParked } from "./sub-run-park";
import { elicitationParked } from "../effects/elicitation";
import type { Slot } from "../state/run-parts";
import { checkpointIfDue } from "../effects/checkpoint-seal";
import { effectivePermission } from "../decisions/permission";
import { checkCall, errorResult, executeTool } from "../effects/tools";
import { isWithheld } from "../decisions/tool-grant";
import { SPAN_NAMES } from "../effects/tracer";
import type { Terminal } from "../vocabulary/types";

/** How handling a turn's tool calls ended: all answered, parked on one, or the run must stop. */
export type CallsOutcome =
  | { done: true }
  | { park: PendingCall }
  | { terminal: Terminal; status: "stuck" | "blocked" | "aborted" | "budget_exhausted" };

/** The status a gate's terminal ends the run with. */
function gateStatus(terminal: Terminal): "blocked" | "aborted" | "budget_exhausted" {
  if (terminal.code === "aborted") return "aborted";
  return terminal.cause === "budget" ? "budget_exhausted" : "blocked";
}

function withNote(result: ToolResultMessage, note: string): ToolResultMessage {
  const [first, ...rest] = result.content;
  if (first?.type === "text") return { ...result, content: [{ type: "text", text: first.text + note }, ...rest] };
  return { ...result, content: [...result.content, { type: "text", text: note }] };
}

/**
 * A progress report as the event carries it: tool code is outside data, so only finite numbers and
 * a string message pass, and the event never holds the tool's own object.
 */
function progressOf(update: ToolProgress): ToolProgress {
  const progress = Number.isFinite(update?.progress) ? update.progress : 0;
  const total = Number.isFinite(update?.total) ? update.total : undefined;
  const message = typeof update?.message === "string" ? update.message : undefined;
  return { progress, ...(total !== undefined ? { total } : {}), ...(message !== undefined ? { message } : {}) };
}

/** Runs one approved call inside a tool span. */
export function runCall(ctx: RunContext, call: ToolCall, note?: string): Promise<ToolResultMessage> {
  const check = checkCall(ctx.tools, call, ctx.deps.clock.now(), (name) => isWithheld(ctx, name));
  if (!check.ok) return Promise.resolve(check.result);
  const span = ctx.tracer.start(SPAN_NAMES.toolCall, { toolName: call.name, toolCallId: call.id }, ctx.turnSpan);
  const execCtx = {
    runId: ctx.runId,
    signal: ctx.signal,
    defaultTimeoutMs: ctx.spec.toolTimeoutMs ?? 120_000,
    now: () => ctx.deps.clock.now(),
    onProgress: (update: ToolProgress) => ctx.emit({ type: "tool_progress", toolCall: call, ...progressOf(update) }),
    link: { parent: ctx, toolCall: call, toolSpan: span, readOnly: check.tool.readOnly },
    ...(ctx.sessionId !== undefined ? { sessionId: ctx.sessionId } : {}),
  };
  return executeTool(check.tool, call, check.args, execCtx).then((result) => {
    ctx.tracer.end(
      span,
      SPAN_NAMES.toolCall,
      { toolName: call.name, toolCallId: call.id, isError: result.isError },
      ctx.turnSpan,
    );
    return note ? withNote(result, note) : result;
  });
}

/**
 * Appends results in call order and tells the observer about each; a stop from the observer
 * ends the run once the slots already running are in. Then the results are handed to the host's
 * checkpoint sink, so a run continued after a crash re-runs only the calls that have none.
 */
export async function flush(ctx: RunContext, slots: Slot[]): Promise<Terminal | undefined> {
  const results = await Promise.all(slots.map((slot) => slot.result));
  let stop: Terminal | undefined;
  for (const [i, result] of results.entries()) {
    const call = slots[i]!.call;
    ctx.messages.push(result);
    ctx.emit({ type: "tool_result", toolCall: call, result });
    if (!ctx.onToolResult || stop) continue;
    try {
      const verdict = await ctx.onToolResult({
        toolCall: call,
        result,
        index: ctx.state.stats.toolCalls,
        turn: ctx.state.stats.turns,
        runId: ctx.runId,
      });
      if (verdict && typeof verdict === "object" && "stop" in verdict) {
        stop = {
          code: "observer_stop",
          cause: "observer",
          message: verdict.stop.message,
          observerCode: verdict.stop.code,
        };
      }
    } catch {
      // An observer that throws is ignored, like every observer.
    }
  }
  slots.length = 0;
  await checkpointIfDue(ctx);
  return stop;
}

/**
 * After the run failed mid-turn (a config error, an unexpected throw): answers every call of the
 * last assistant turn that has no result yet, so the history a host appends stays well-formed.
 */
export function closeUnanswered(ctx: RunContext, why: string): void {
  const last = ctx.messages.findLastIndex((message) => message.role === "assistant");
  const turn = ctx.messages[last];
  if (!turn || turn.role !== "assistant") return;
  const answered = new Set(
    ctx.messages.slice(last + 1).flatMap((message) => (message.role === "toolResult" ? [message.toolCallId] : [])),
  );
  const open = assistantToolCalls(turn).filter((call) => !answered.has(call.id));
  closeRemaining(ctx, open, 0, why);
}

/** Answers the calls that will not run because the run ends, so the history stays well-formed. */
export function closeRemaining(ctx: RunContext, calls: ToolCall[], from: number, why: string): void {
  for (const call of calls.slice(from))
    ctx.messages.push(errorResult(call, `Not run: ${why}.`, { error: "not_run" }, ctx.deps.clock.now()));
}

/**
 * The tool calls of one assistant turn, from `start`: loop guard, checks, permission, then
 * execution. Consecutive read-only calls run in parallel; results keep call order. Parks on the
 * first call that needs a person nobody can provide.
 */
export async function handleCalls(ctx: RunContext, turn: AssistantMessage, start: number): Promise<CallsOutcome> {
  const calls = assistantToolCalls(turn);
  const slots: Slot[] = [];
  const maxRepeats = ctx.spec.maxRepeatedCalls ?? 3;
  for (let i = start; i < calls.length; i++) {
    const call = calls[i]!;
    if (ctx.signal.aborted) {
      await flush(ctx, slots);
      closeRemaining(ctx, calls, i, "the run was aborted");
      return { terminal: { code: "aborted", cause: "host", message: "the run was aborted" }, status: "aborted" };
    }
    ctx.state.stats.toolCalls += 1;
    const verdict = ctx.guard.observe(call);
    ctx.state.loopGuard = ctx.guard.state();
    if (verdict === "stuck") {
      await flush(ctx, slots);
      closeRemaining(ctx, calls, i, "the run stopped on a repeated identical call");
      return {
        terminal: {
          code: "loop_detected",
          cause: "guard",
          message: `"${call.name}" was called with identical arguments more than ${maxRepeats} times in a row`,
        },
        status: "stuck",
      };
    }
    const note = verdict === "warn" ? loopGuardNote(call.name, maxRepeats) : undefined;
    const check = checkCall(ctx.tools, call, ctx.deps.clock.now(), (name) => isWithheld(ctx, name));
    if (!check.ok) {
      ctx.emit({ type: "tool_call", toolCall: call, permission: "allow" });
      slots.push({ call, result: Promise.resolve(note ? withNote(check.result, note) : check.result) });
      continue;
    }
    const permission = effectivePermission(ctx, check.tool);
    ctx.emit({ type: "tool_call", toolCall: call, permission });
    // A gate may consult the classifier with the history so far: earlier results go in first.
    if (permission !== "allow") {
      const stop = await flush(ctx, slots);
      if (stop) {
        closeRemaining(ctx, calls, i, "the run was stopped by its observer");
        return { terminal: stop, status: "stuck" };
      }
    }
    const gate = await gateCall(ctx, call, permission);
    if ("park" in gate) return { park: { ...gate.park, index: i } };
    if ("terminal" in gate) {
      await flush(ctx, slots);
      closeRemaining(ctx, calls, i, gate.terminal.message);
      return { terminal: gate.terminal, status: gateStatus(gate.terminal) };
    }
    if ("result" in gate) {
      slots.push({ call, result: Promise.resolve(note ? withNote(gate.result, note) : gate.result) });
      continue;
    }
    if (!check.tool.readOnly) {
      const stop = await flush(ctx, slots);
      if (stop) {
        closeRemaining(ctx, calls, i, "the run was stopped by its observer");
        return { terminal: stop, status: "stuck" };
      }
    }
    slots.push({ call, result: runCall(ctx, call, note) });
    if (!check.tool.readOnly) {
      const parked = (await childParked(ctx, slots)) ?? (await elicitationParked(ctx, slots));
      if (parked) return { park: { ...parked, index: i } };
      const stop = await flush(ctx, slots);
      if (stop) {
        closeRemaining(ctx, calls, i + 1, "the run was stopped by its observer");
        return { terminal: stop, status: "stuck" };
      }
    }
  }
  const stop = await flush(ctx, slots);
  if (stop) return { terminal: stop, status: "stuck" };
  return { done: true };
}
