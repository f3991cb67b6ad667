import type { ToolCall, ToolResultMessage } from "@x/llm-types";
import type { Slot } from "../state/run-parts";
import type { Tool } from "../vocabulary/define-tool";
import { verifyParkedRun } from "../effects/park";
import { ParkedRunError } from "../vocabulary/parked-run-error";
import type { ParkedRun, PendingCall } from "../vocabulary/park-schema";
import type { PendingElicitation } from "../vocabulary/elicitation";
import type { RunContext } from "../state/run-context";
import { childEmit, lineageFor } from "./sub-run";
import { plannedChild, resumedChildResult } from "./sub-run-tool";
import type { SubRunSpec, TaskPathEntry } from "../vocabulary/sub-run-types";
import { grantCarried } from "../decisions/tool-grant";
import { findTool } from "../decisions/tool-grant";
import { SPAN_NAMES } from "../effects/tracer";
import type { ApprovalKind } from "../vocabulary/types";
import type { ResumeDecision, ResumeOptions } from "../vocabulary/runner-api";
import { markStopped } from "../effects/stopped-result";

/** The call a parked tree waits on, wherever in the tree it is. */
export interface PendingApproval {
  /** The inner call itself: its tool, id and arguments, never the delegating call. */
  toolCall: { id: string; name: string; arguments: Record<string, unknown> };
  kind: ApprovalKind;
  reason?: string;
  /** The delegating calls from the top-level run down to the run that made the call; empty at the top. */
  path: TaskPathEntry[];
  /** On kind `elicitation`: the question the running call asked the person, and its form. */
  elicitation?: PendingElicitation;
}

/** Reads a parked run (a tree of sub-runs parks as one value) down to the call a person must decide. */
export function pendingApproval(parked: ParkedRun): PendingApproval {
  const path: TaskPathEntry[] = [];
  let at = parked;
  while (at.pending.child) {
    path.push({ runId: at.spec.runId, toolName: at.pending.toolName, toolCallId: at.pending.toolCallId });
    at = at.pending.child;
  }
  const { pending } = at;
  return {
    toolCall: { id: pending.toolCallId, name: pending.toolName, arguments: pending.arguments },
    kind: pending.kind,
    ...(pending.reason !== undefined ? { reason: pending.reason } : {}),
    ...(pending.elicitation ? { elicitation: pending.elicitation } : {}),
    path,
  };
}

/** The innermost pending call's tool name, for the parked run's terminal message. */
export function pendingToolName(pending: Pick<PendingCall, "toolName" | "child">): string {
  return pending.child ? pendingApproval(pending.child).toolCall.name : pending.toolName;
}

/**
 * After a delegating call ran: if its child parked, the call is taken out of the slots (it has no
 * result yet) and becomes this run's pending call, carrying the child's signed park.
 */
export async function childParked(ctx: RunContext, slots: Slot[]): Promise<Omit<PendingCall, "index"> | undefined> {
  const last = slots.at(-1);
  if (!last) return undefined;
  // The tool may start its first child only once it runs: the book is looked at after the result.
  await last.result;
  const child = ctx.subRuns?.parks.get(last.call.id)?.parked;
  if (!child) return undefined;
  slots.pop();
  return pendingFor(last.call, child);
}

function pendingFor(call: ToolCall, child: ParkedRun): Omit<PendingCall, "index"> {
  return {
    toolCallId: call.id,
    toolName: call.name,
    arguments: call.arguments,
    kind: child.pending.kind,
    ...(child.pending.reason !== undefined ? { reason: child.pending.reason } : {}),
    child,
  };
}

/**
 * Every level of a parked tree below the top checks out (schema, signature, expiry, and that it
 * belongs to the run above it) before anything is claimed, so a bad inner level consumes nothing.
 */
export function verifyParkedChildren(park: ParkedRun, key: Uint8Array | string, now: number): void {
  for (let above = park, at = park.pending.child; at; above = at, at = at.pending.child) {
    verifyParkedRun(at, key, now);
    if (at.spec.parentRunId !== above.spec.runId)
      throw new ParkedRunError("invalid_schema", "a sub-run's park does not belong to the run it is parked in", {
        parkId: at.parkId,
      });
  }
}

/**
 * The tools a resumed child's grant is drawn from: its sub-run tool's plan for the call's arguments
 * — what the child was started with — or, for a child a host's own `execute` started (no plan),
 * the tools `resume` was given. Either way the child is then offered only what its own signed park
 * grants: never its ancestors' tools.
 */
function childOnHand(
  tool: Tool | undefined,
  args: unknown,
  given: readonly Tool[],
): {
  onHand: readonly Tool[];
  planned: SubRunSpec | undefined;
} {
  const planned = plannedChild(tool, args);
  return { onHand: planned ? (planned.tools ?? []) : given, planned };
}

/**
 * Every level of a parked tree gets the tools its signed park grants, checked from the top down
 * before anything is claimed: a level whose grant the tools on hand cannot meet refuses the whole
 * resume (`unknown_tool`), with nothing consumed. Returns the top level's grant.
 */
export function grantParkedTree(park: ParkedRun, onHand: readonly Tool[]): Tool[] {
  const grantOrRefuse = (at: ParkedRun, tools: readonly Tool[]) =>
    grantCarried(at.spec.toolNames, tools, `parked run ${at.parkId}`, { parkId: at.parkId });
  const top = grantOrRefuse(park, onHand);
  for (let at = park, tools = top; at.pending.child; at = at.pending.child) {
    const below = childOnHand(findTool(tools, at.pending.toolName), at.pending.arguments, onHand);
    tools = grantOrRefuse(at.pending.child, below.onHand);
  }
  return top;
}

/**
 * Resumes the child a parked delegating call is waiting on (which resumes its own child first, and
 * so on down), then turns its result into the delegating call's result — or parks again. A child
 * stopped with this run gives a result marked as the stop's own (`markStopped`), not the call's.
 */
export async function resumeChildCall(
  ctx: RunContext,
  call: ToolCall,
  child: ParkedRun,
  decision: ResumeDecision,
  options: ResumeOptions,
): Promise<{ result: ToolResultMessage } | { park: Omit<PendingCall, "index"> }> {
  const tool = findTool(ctx.tools, call.name);
  const { onHand, planned } = childOnHand(tool, call.arguments, options.tools ?? ctx.deps.tools);
  const span = ctx.tracer.start(SPAN_NAMES.toolCall, { toolName: call.name, toolCallId: call.id }, ctx.turnSpan);
  const lineage = lineageFor(ctx, call, span, true);
  const result = await ctx.deps.runs.resume(
    ctx.deps,
    child,
    decision,
    {
      tools: onHand,
      signal: ctx.signal,
      ...(planned?.output ? { output: planned.output } : {}),
      ...(planned?.onToolResult ? { onToolResult: planned.onToolResult } : {}),
    },
    childEmit(ctx, lineage.path),
    lineage,
  );
  const parkedAgain = result.status === "parked" && result.parked ? result.parked : undefined;
  ctx.tracer.end(
    span,
    SPAN_NAMES.toolCall,
    { toolName: call.name, toolCallId: call.id, isError: !parkedAgain && result.status !== "completed" },
    ctx.turnSpan,
  );
  if (parkedAgain) return { park: pendingFor(call, parkedAgain) };
  const shaped = resumedChildResult(tool, call, result, ctx.deps.clock.now());
  return { result: ctx.signal.aborted && result.status === "aborted" ? markStopped(shaped) : shaped };
}
