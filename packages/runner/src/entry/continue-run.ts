import { readCheckpoint } from "../effects/checkpoint-seal";
import type { RunEvent } from "../vocabulary/events";
import { historyView } from "../state/history-view";
import { continueTurns } from "../loop/loop";
import type { ResolvedDeps } from "../state/run-context";
import { buildContext, drive, failedBeforeStart } from "../loop/run-lifecycle";
import type { TaskResult } from "../vocabulary/types";
import type { ContinueOptions } from "../vocabulary/runner-api";
import { grantCarried } from "../decisions/tool-grant";

/**
 * Continues a run from a checkpoint its host made durable: the same spec, history, messages and
 * counters, so the next request is byte for byte the one the lost process would have sent (the
 * provider's prompt cache still hits). A turn the model already answered is not asked again: its
 * calls without a result run, under the same ids and idempotency keys; only a model call that was
 * in flight is paid for again.
 */
export async function continueRun(
  deps: ResolvedDeps,
  raw: unknown,
  options: ContinueOptions,
  emit: (event: RunEvent) => void,
): Promise<TaskResult> {
  const checkpoint = readCheckpoint(raw, deps.parkKey);
  const onHand = options.tools ?? deps.tools;
  const ctx = buildContext(deps, {
    spec: checkpoint.spec,
    tools: grantCarried(checkpoint.spec.toolNames, onHand, "the checkpointed run"),
    onHand,
    history: historyView(checkpoint.history, deps.compaction),
    messages: checkpoint.messages,
    state: checkpoint.state,
    signal: options.signal ?? new AbortController().signal,
    emit,
    ...(options.output ? { output: options.output } : {}),
    ...(options.onToolResult ? { onToolResult: options.onToolResult } : {}),
    ...(options.onCheckpoint ? { onCheckpoint: options.onCheckpoint } : {}),
    ...(options.onCheckpointSegment ? { onCheckpointSegment: options.onCheckpointSegment } : {}),
  });
  if (!("deps" in ctx)) return failedBeforeStart(ctx, checkpoint.spec, checkpoint.messages, emit);
  return drive(ctx, () => continueTurns(ctx));
}
