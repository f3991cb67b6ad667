import type { Message } from "@x/llm-types";
import type { ContinueOptions, Runner, TaskResult, TaskSpec, Tool, ToolResultInfo } from "@x/runner";
import type { ParkedRun } from "@x/runner";
import type { CheckpointSegmentSink, RunCheckpointSegment } from "@x/runner/backend";
import type { RunStepOptions, TaskKindTake } from "./task-kind";
import type { TaskRow } from "./task-row";
import type { TaskTurns } from "./task-turns";

/** What the worker lends a take: its runner, its fenced writes and the task's chain. */
export interface KindTakeDeps {
  row: TaskRow;
  runner: Runner;
  tools: readonly Tool[];
  signal: AbortSignal;
  turns: TaskTurns;
  /** The worker's checkpoint sink for this task (fenced; tells `turn` events). */
  checkpointSink: (chain: RunCheckpointSegment[]) => CheckpointSegmentSink;
  /** The worker's own tool-result observer (a `tool_result` event). */
  observe: (info: ToolResultInfo) => Promise<void>;
  /** Writes the kind's state while the worker holds the task; false when the lease is gone. */
  writeState: (json: string) => Promise<boolean>;
}

/** The take a {@link TaskKind} runs with: the queue's durable run of each of its runner runs. */
export function kindTake(deps: KindTakeDeps): TaskKindTake {
  const { row, runner, tools, signal, turns } = deps;
  // A decided park resumes once per take: a later step of the same take is a new run.
  let decisionUsed = false;
  const runStep = async (spec: TaskSpec & { runId: string }, options: RunStepOptions = {}): Promise<TaskResult> => {
    const own = spec.onToolResult;
    const onToolResult = async (info: ToolResultInfo) => {
      await deps.observe(info);
      return own?.(info);
    };
    const chain = await turns.read(row.id);
    const ours = chain.length > 0 && chain[0]!.runId === spec.runId ? chain : [];
    const common: ContinueOptions = {
      tools: spec.tools ?? tools,
      signal,
      onToolResult,
      onCheckpointSegment: deps.checkpointSink(ours),
    };
    const restored = ours.flatMap((link) => link.messages);
    const parked = row.parked as ParkedRun | null;
    if (!decisionUsed && row.status === "resuming" && parked?.spec.runId === spec.runId) {
      decisionUsed = true;
      // A chain past the park means the decided call already ran and the run went on: continue it.
      if (restored.length <= parked.messages.length) {
        options.onRestore?.(parked.messages);
        return runner.resume(parked, row.decision ?? { decision: "deny", reason: "no decision" }, common);
      }
    }
    if (ours.length > 0) {
      options.onRestore?.(restored satisfies Message[]);
      return runner.continueRun(ours, common);
    }
    return runner.runTask(
      { ...spec, tools: spec.tools ?? tools, onToolResult },
      { signal, onCheckpointSegment: deps.checkpointSink([]) },
    );
  };
  return {
    taskId: row.id,
    owner: row.owner,
    scope: row.scope,
    spec: { ...row.spec, tools },
    runner,
    signal,
    state: row.driver_state,
    async saveState(state) {
      if (!(await deps.writeState(JSON.stringify(state)))) {
        throw new Error(`task ${row.id}: this worker lost its lease; another one continues the task`);
      }
    },
    runStep,
  };
}
