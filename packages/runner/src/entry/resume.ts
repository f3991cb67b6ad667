import { parseWith, type ToolCall, type ToolResultMessage, describeError, assistantToolCalls } from "@x/llm-types";
import { closeRemaining, flush, handleCalls, runCall } from "../loop/calls";
import type { RunEvent } from "../vocabulary/events";
import { parkedEnd, runTurns } from "../loop/loop";
import { pendingTurn, verifyParkedRun } from "../effects/park";
import { ParkedRunError } from "../vocabulary/parked-run-error";
import type { ParkedRun, PendingCall } from "../vocabulary/park-schema";
import { afterPersonDecided, deniedResult } from "../loop/permissions";
import type { Lineage, ResolvedDeps, RunContext } from "../state/run-context";
import { grantParkedTree, resumeChildCall, verifyParkedChildren } from "../loop/sub-run-park";
import { buildContext, drive, failedBeforeStart } from "../loop/run-lifecycle";
import { historyView } from "../state/history-view";
import { ResumeDecisionSchema } from "../vocabulary/schemas";
import { checkDecisionFits, parkedElicitation, replayAnswers } from "../effects/elicitation";
import type { ElicitationDecision } from "../vocabulary/elicitation";
import { addGate, toRunStats } from "../state/stats";
import { claimOf, type ParkClaim } from "../vocabulary/park-ledger";
import { settleWhenMovedOn } from "../effects/park-settle";
import type { TaskResult } from "../vocabulary/types";
import type { ResumeDecision, ResumeOptions } from "../vocabulary/runner-api";
import { isStopped } from "../effects/stopped-result";

/**
 * Continues a parked run: verify (schema, signature, expiry), claim the park id in the ledger, and
 * only then decide the pending call and run on. Every refusal of the park itself, an abort, and a
 * model that no longer resolves come before the claim, so they spend nothing.
 */
export async function resumeRun(
  deps: ResolvedDeps,
  raw: unknown,
  decision: ResumeDecision,
  options: ResumeOptions,
  emit: (event: RunEvent) => void,
  lineage?: Lineage,
): Promise<TaskResult> {
  parseWith(ResumeDecisionSchema, decision, "resume decision");
  const now = deps.clock.now();
  const park: ParkedRun = verifyParkedRun(raw, deps.parkKey, now);
  // A sub-run's park resumes only inside its parent's, where its ancestors' rules still hold.
  if (park.spec.parentRunId !== lineage?.parent.runId) {
    throw new ParkedRunError(
      "not_top_level",
      "this park belongs to a sub-run: resume the top-level park it is part of",
      { parkId: park.parkId },
    );
  }
  verifyParkedChildren(park, deps.parkKey, now);
  checkDecisionFits(park, decision);
  const onHand = options.tools ?? deps.tools;
  const tools = grantParkedTree(park, onHand);
  // Aborted before anything happened: the park is not claimed, so the approval is not lost and the
  // same park can be resumed once the host is running again.
  if (options.signal?.aborted) {
    const result: TaskResult = {
      status: "aborted",
      terminal: {
        code: "aborted",
        cause: "host",
        message: "the resume was aborted before the park was claimed; it can be resumed again",
      },
      output: "",
      messages: park.messages,
      stats: toRunStats(park.state.stats),
      runId: park.spec.runId,
      parked: park,
      ...(park.spec.sessionId !== undefined ? { sessionId: park.spec.sessionId } : {}),
    };
    emit({ type: "run_end", result });
    return result;
  }
  const ctx = buildContext(deps, {
    spec: park.spec,
    tools,
    onHand,
    history: historyView(park.history, deps.compaction),
    messages: park.messages,
    state: park.state,
    signal: options.signal ?? new AbortController().signal,
    emit,
    ...(options.output ? { output: options.output } : {}),
    ...(options.onToolResult ? { onToolResult: options.onToolResult } : {}),
    ...(options.onCheckpoint ? { onCheckpoint: options.onCheckpoint } : {}),
    ...(options.onCheckpointSegment ? { onCheckpointSegment: options.onCheckpointSegment } : {}),
    ...(lineage ? { lineage } : {}),
  });
  // A park whose model no longer resolves (the catalog changed) is not claimed either: fix the
  // configuration and the same park resumes.
  if (!("deps" in ctx)) return failedBeforeStart(ctx, park.spec, park.messages, emit, park);
  const claim = await claimPark(deps, park.parkId);
  if (claim.status === "refused") throw refusal(park.parkId, claim.reason);
  if (park.spec.hasOutput && !options.output) {
    ctx.notice({
      code: "config.resume_output_missing",
      audience: "operator",
      message:
        "The parked run had an output schema, but resume was given none: the final " +
        "answer will not be parsed, and the system prompt differs from the parked run's.",
      detail: { parkId: park.parkId },
    });
  }
  const settled = settleWhenMovedOn(ctx, park.parkId);
  const result = await drive(ctx, async () => {
    const turn = pendingTurn(park.messages);
    if (!turn) throw new Error("parked run does not end with an assistant turn and its results");
    const call = assistantToolCalls(turn)[park.pending.index]!;
    const outcome = await decidePending(ctx, park, claim, call, decision, options, now);
    if ("park" in outcome) return parkedEnd({ ...outcome.park, index: park.pending.index });
    const result = outcome.result;
    const stop = await flush(ctx, [{ call, result }]);
    if (stop) {
      closeRemaining(ctx, assistantToolCalls(turn), park.pending.index + 1, "the run was stopped by its observer");
      return { status: "stuck", terminal: stop };
    }
    const rest = await handleCalls(ctx, turn, park.pending.index + 1);
    if ("park" in rest) return parkedEnd(rest.park);
    if ("terminal" in rest) return { status: rest.status, terminal: rest.terminal };
    return runTurns(ctx);
  });
  return settled(result);
}

const REFUSALS: Record<Extract<ParkClaim, { status: "refused" }>["reason"], string> = {
  replayed: "was already resumed",
  in_progress: "is being resumed by another process",
  unknown_outcome:
    "was being executed by a process that stopped before recording the " +
    "result: whether the call took effect is unknown, so it is not run again",
};

/** The ledger's claim; a ledger that fails (I/O, a path that is not a folder) is a typed refusal, with nothing run. */
async function claimPark(deps: ResolvedDeps, parkId: string): Promise<ParkClaim> {
  try {
    return claimOf(await deps.parkLedger.claim(parkId));
  } catch (error) {
    throw new ParkedRunError(
      "ledger_unavailable",
      `the park ledger could not claim parked run ${parkId}, so nothing was run: ${describeError(error)}`,
      { parkId },
    );
  }
}

function refusal(parkId: string, reason: keyof typeof REFUSALS): ParkedRunError {
  return new ParkedRunError(reason, `parked run ${parkId} ${REFUSALS[reason]}`, { parkId });
}

type Decided = { result: Promise<ToolResultMessage> } | { park: Omit<PendingCall, "index"> };

/**
 * Runs (or denies) the decided call between the ledger's `executing` and `executed` marks, so a
 * crash in between is an unknown outcome and a crash after it replays the recorded result. A call
 * that stops to ask the person a question nobody can answer now parks again: this park is
 * consumed, and the new one carries the question.
 */
async function decided(
  ctx: RunContext,
  parkId: string,
  call: ToolCall,
  /** Set when the person denied the call: its result, instead of running it. */
  denied?: () => ToolResultMessage,
): Promise<Decided> {
  const ledger = ctx.deps.parkLedger;
  let result: ToolResultMessage;
  if (!denied) {
    await ledger.executing?.(parkId);
    result = await runCall(ctx, call);
    const asked = parkedElicitation(ctx, call);
    if (asked) return { park: asked };
    // Cut short by a stop: not the call's result. Left `executing`, the claim lapses to an unknown
    // outcome, as after a crash mid-call — never a second run, never a "stopped" result replayed.
    if (isStopped(result)) return { result: Promise.resolve(result) };
  } else {
    result = denied();
  }
  await ledger.executed?.(parkId, result);
  return { result: Promise.resolve(result) };
}

/**
 * The person's decision on the pending call: run it (or its child, which carries the decision down
 * to the call that waits), or answer it as denied. The gate is recorded where the call is.
 */
async function decidePending(
  ctx: RunContext,
  park: ParkedRun,
  claim: ParkClaim,
  call: ToolCall,
  decision: ResumeDecision,
  options: ResumeOptions,
  now: number,
): Promise<Decided> {
  if (claim.status === "recorded") return { result: Promise.resolve(claim.result) };
  if (park.pending.child) return resumeChildOnce(ctx, park, call, decision, options);
  if (decision.decision === "answer" || decision.decision === "decline")
    return answered(ctx, park, call, decision, Math.max(0, now - park.createdAt));
  const waitMs = Math.max(0, now - park.createdAt);
  addGate(ctx.state.stats, { kind: park.pending.kind, waitMs, decision: decision.decision });
  ctx.emit({ type: "approval", toolCall: call, kind: park.pending.kind, decision: decision.decision, waitMs });
  afterPersonDecided(ctx, park.pending.kind, decision.decision);
  const denied = () => deniedResult(call, decision.reason, ctx.deps.clock.now());
  return decided(ctx, park.parkId, call, decision.decision === "approve" ? undefined : denied);
}

/**
 * The delegating call's part of a tree's resume: between the ledger's marks, the child resumes
 * (and its own child, down to the decided call). A child that parks again leaves no result here:
 * this park is consumed, and the new one carries the tree on.
 */
async function resumeChildOnce(
  ctx: RunContext,
  park: ParkedRun,
  call: ToolCall,
  decision: ResumeDecision,
  options: ResumeOptions,
): Promise<Decided> {
  const ledger = ctx.deps.parkLedger;
  await ledger.executing?.(park.parkId);
  const child = await resumeChildCall(ctx, call, park.pending.child!, decision, options);
  if ("park" in child) return child;
  // A child stopped with this run: its "aborted" is the stop's, not the call's (see `decided`).
  if (isStopped(child.result)) return { result: Promise.resolve(child.result) };
  await ledger.executed?.(park.parkId, child.result);
  return { result: Promise.resolve(child.result) };
}

/**
 * The person answered (or declined) the question the call parked on: the call runs again from its
 * start, and its `ctx.elicit` replays the recorded answers at once (a new question nobody can
 * answer now parks again, carrying the answers so far).
 */
function answered(ctx: RunContext, park: ParkedRun, call: ToolCall, decision: ElicitationDecision, waitMs: number) {
  addGate(ctx.state.stats, { kind: "elicitation", waitMs, decision: decision.decision });
  replayAnswers(ctx, call, park.pending.elicitation!, decision);
  return decided(ctx, park.parkId, call);
}
