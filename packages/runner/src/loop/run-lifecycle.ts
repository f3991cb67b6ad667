import { compactionReport } from "./compaction";
import { randomUUID } from "node:crypto";
import { assistantText, isCodedError, safeObserve, type Message, describeError } from "@x/llm-types";
import { CLASSIFIER_CONFIG_ERROR_CODES } from "@x/classifier-ladder";
import { createAutoModeGate } from "../effects/auto-mode";
import { markKnown } from "../state/known-messages";
import type { CheckpointSink } from "../vocabulary/checkpoint";
import type { CheckpointSegmentSink } from "../vocabulary/checkpoint-segment";
import { historyView, type HistoryView } from "../state/history-view";
import { giveBack } from "../state/lent-messages";
import { closeUnanswered } from "./calls";
import type { RunEvent } from "../vocabulary/events";
import type { LoopEnd } from "./loop";
import { createLoopGuard } from "../decisions/loop-guard";
import { outputInstruction } from "../decisions/output";
import { signParkedRun } from "../effects/park";
import type { ParkedRun, RunSpec, RunState } from "../vocabulary/park-schema";
import { resolveTaskModel } from "../decisions/resolve";
import type { Lineage, ResolvedDeps, RunContext } from "../state/run-context";
import { offeredToolSpecs } from "../decisions/permission";
import { fitToWindow } from "../decisions/fitted-compaction";
import { resultStats, settleInParent } from "./sub-run-stats";
import { emptyStats, toRunStats, verdictCount } from "../state/stats";
import { RunTracer, SPAN_NAMES } from "../effects/tracer";
import type { Tool } from "../vocabulary/define-tool";
import type { TaskResult, TaskSpec, Terminal } from "../vocabulary/types";

// One run's life, shared by a fresh run and a resumed one: its context, its loop, its result.

export interface ContextInput {
  spec: RunSpec;
  /** What the run may be offered: its grant, from `grantTools`. */
  tools: readonly Tool[];
  /** The host's tools the grant was drawn from. */
  onHand: readonly Tool[];
  output?: TaskSpec["output"];
  onToolResult?: TaskSpec["onToolResult"];
  onCheckpoint?: CheckpointSink;
  onCheckpointSegment?: CheckpointSegmentSink;
  /** The history, viewed with the runner's compaction options (`historyView`). */
  history: HistoryView;
  messages: Message[];
  state: RunState;
  signal: AbortSignal;
  emit: (event: RunEvent) => void;
  lineage?: Lineage;
}

export function buildContext(deps: ResolvedDeps, input: ContextInput): RunContext | Terminal {
  let taskModel;
  try {
    taskModel = resolveTaskModel(deps.routing, input.spec);
  } catch (error) {
    if (isCodedError(error, "no_model")) return { code: "no_model", cause: "config", message: error.message };
    throw error;
  }
  const { spec } = input;
  const runId = spec.runId;
  // A small window gets a tighter tool-result cap; the history is then viewed under it.
  const compaction = fitToWindow(deps.compaction, taskModel, spec.maxTokens);
  const history = compaction === deps.compaction ? input.history : historyView(input.history.entries, compaction);
  const tracer = new RunTracer(deps.tracer, () => deps.clock.now(), runId, spec.sessionId);
  const systemPrompt = input.output
    ? [spec.systemPrompt, outputInstruction(input.output)].filter(Boolean).join("\n\n")
    : spec.systemPrompt;
  const ctx: RunContext = {
    deps,
    spec,
    runId,
    signal: input.signal,
    tools: input.tools,
    onHand: input.onHand,
    toolSpecs: offeredToolSpecs({ spec, ...(input.lineage ? { lineage: input.lineage } : {}) }, input.tools),
    taskModel,
    chainIndex: 0,
    history: history.entries,
    historyView: history,
    messages: input.messages,
    state: input.state,
    checkpointedMessages: input.messages.length,
    checkpointedVerdicts: verdictCount(input.state.stats),
    guard: createLoopGuard(spec.maxRepeatedCalls ?? 3, input.state.loopGuard),
    tracer,
    runSpan: "",
    emit: input.emit,
    notice: (notice) => {
      const full = { ...notice, runId, ...(spec.sessionId !== undefined ? { sessionId: spec.sessionId } : {}) };
      safeObserve(deps.onNotice, full);
      input.emit({ type: "notice", notice: full });
    },
    ...(spec.sessionId !== undefined ? { sessionId: spec.sessionId } : {}),
    ...(systemPrompt !== undefined ? { systemPrompt } : {}),
    ...(compaction ? { compactionOptions: compaction } : {}),
    ...(input.output ? { output: input.output } : {}),
    ...(input.onToolResult ? { onToolResult: input.onToolResult } : {}),
    ...(input.onCheckpoint ? { onCheckpoint: input.onCheckpoint } : {}),
    ...(input.onCheckpointSegment ? { onCheckpointSegment: input.onCheckpointSegment } : {}),
    ...(input.lineage ? { lineage: input.lineage } : {}),
  };
  ctx.autoMode = createAutoModeGate(ctx);
  // A running child's spend counts against its ancestors' budgets from its first call.
  input.lineage?.parent.subRuns?.running.add(ctx);
  return ctx;
}

function lastAssistantText(messages: readonly Message[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role === "assistant") return assistantText(message);
  }
  return "";
}

function finish(ctx: RunContext, end: LoopEnd): TaskResult {
  markKnown(ctx.messages);
  // Every model call of the run has settled: the lent array can serve the next run of this history.
  giveBack(ctx.lent);
  ctx.lent = undefined;
  const result: TaskResult = {
    status: end.status,
    terminal: end.terminal,
    output: lastAssistantText(ctx.messages),
    messages: ctx.messages,
    stats: resultStats(ctx, end.park),
    runId: ctx.runId,
    ...(ctx.sessionId !== undefined ? { sessionId: ctx.sessionId } : {}),
    ...(ctx.subRuns?.records.length ? { subRuns: ctx.subRuns.records } : {}),
    ...(end.model ? { model: end.model } : {}),
    ...(end.structured !== undefined ? { structured: end.structured } : {}),
    ...(ctx.compactionOptions ? { compaction: compactionReport(ctx) } : {}),
  };
  if (end.park) {
    // A sub-run's park travels inside its parent's: the top-level run speaks for the whole tree.
    const top = ctx.lineage === undefined;
    if (top && ctx.deps.parkKeyEphemeral) {
      ctx.notice({
        code: "config.park_key_ephemeral",
        audience: "operator",
        message:
          "This run parked, signed with a random key: only this runner " +
          "can resume it. Set `parkKey` to resume in another process.",
        detail: {},
      });
    }
    const parked = signParkedRun(
      {
        parkId: randomUUID(),
        now: ctx.deps.clock.now(),
        ttlMs: ctx.deps.parkTtlMs,
        spec: ctx.spec,
        history: ctx.history,
        messages: ctx.messages,
        pending: end.park,
        state: structuredClone(ctx.state),
      },
      ctx.deps.parkKey,
    );
    result.parked = parked;
    ctx.emit({ type: "parked", parked });
  }
  ctx.tracer.end(ctx.runSpan, SPAN_NAMES.run, {
    status: result.status,
    code: result.terminal.code,
    model: result.model?.id ?? ctx.taskModel.model.id,
    provider: ctx.taskModel.model.provider,
    inputTokens: ctx.state.stats.usage.input + ctx.state.stats.usage.cacheRead + ctx.state.stats.usage.cacheWrite,
    outputTokens: ctx.state.stats.usage.output,
    costMicroUsd: ctx.state.stats.usage.cost.total,
    turns: result.stats.turns,
    toolCalls: result.stats.toolCalls,
  });
  if (ctx.lineage) settleInParent(ctx.lineage, result, ctx);
  ctx.emit({ type: "run_end", result });
  return result;
}

export function failedBeforeStart(
  terminal: Terminal,
  spec: RunSpec,
  messages: Message[],
  emit: (e: RunEvent) => void,
  parked?: ParkedRun,
): TaskResult {
  markKnown(messages);
  const result: TaskResult = {
    status: "failed",
    terminal,
    output: "",
    messages,
    stats: toRunStats(emptyStats()),
    runId: spec.runId,
    ...(spec.sessionId !== undefined ? { sessionId: spec.sessionId } : {}),
    ...(parked ? { parked } : {}),
  };
  emit({ type: "run_end", result });
  return result;
}

/** Runs the loop, turning a classifier misconfiguration or an unexpected throw into a typed end. */
export async function drive(ctx: RunContext, body: () => Promise<LoopEnd>): Promise<TaskResult> {
  const parent = ctx.lineage;
  ctx.runSpan = ctx.tracer.start(
    SPAN_NAMES.run,
    {
      model: ctx.taskModel.model.id,
      provider: ctx.taskModel.model.provider,
      objective: ctx.spec.objective.slice(0, 200),
      ...(parent ? { parentRunId: parent.parent.runId, depth: parent.depth } : {}),
    },
    parent?.toolSpan,
  );
  ctx.emit({
    type: "run_start",
    runId: ctx.runId,
    model: ctx.taskModel.model.id,
    ...(ctx.sessionId !== undefined ? { sessionId: ctx.sessionId } : {}),
  });
  let end: LoopEnd;
  try {
    end = await body();
  } catch (error) {
    const message = describeError(error);
    end = isCodedError(error, CLASSIFIER_CONFIG_ERROR_CODES)
      ? { status: "failed", terminal: { code: "config_invalid", cause: "config", message } }
      : { status: "failed", terminal: { code: "internal_error", cause: "host", message } };
    closeUnanswered(ctx, `the run failed (${end.terminal.code})`);
  }
  return finish(ctx, end);
}

/** A new run's counters and one-shot recoveries. */
export function freshState(): RunState {
  return {
    stats: emptyStats(),
    loopGuard: { streak: 0 },
    denials: { consecutiveBlocks: 0, totalBlocks: 0, consecutiveUnavailable: 0 },
    recovered: { maxTokens: false, emptyAnswer: false, degenerate: false, output: false },
    seatAnnounced: false,
  };
}
