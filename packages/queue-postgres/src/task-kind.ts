import type { Message } from "@x/llm-types";
import type { Runner, TaskResult, TaskSpec } from "@x/runner";

/**
 * A kind of queued task that is more than one runner run — teacher mode (`@x/teacher`'s
 * `teacherTask`), a council review — handed to the workers by the host (`WorkerOptions.kinds`) and
 * named at `enqueue` (`kind`). The queue depends on none of them: a kind sees the queue only through
 * {@link TaskKindTake}, so `@x/queue-postgres` and the packages that supply kinds import nothing of
 * each other, and a host that wants no teacher pulls none in.
 */
export interface TaskKind {
  /**
   * Runs the task, or goes on with it after another worker died or after a park was decided: the
   * take hands back what the kind saved (`state`) and continues its runner runs (`runStep`). The
   * result settles the task as a plain run's does (a `parked` result parks it). A `CodedError`
   * thrown here (a state refused as tampered, say) fails the task with its code.
   */
  run(take: TaskKindTake): Promise<TaskResult>;
}

/** What a worker hands a {@link TaskKind} for one take of a task. */
export interface TaskKindTake {
  taskId: string;
  owner: string;
  scope: string | null;
  /** The queued spec, with the task's granted tools from this worker. */
  spec: TaskSpec;
  /** The worker's runner (its park ledger is this queue's), for calls that need no checkpoint. */
  runner: Runner;
  /** Aborted when the worker stops or loses the task's lease. */
  signal: AbortSignal;
  /**
   * What the kind last saved on an earlier take of this task, exactly as stored — outside data: verify
   * it before trusting it. `null` on the first take.
   */
  state: unknown;
  /**
   * Stores the kind's state (JSON), fenced by the task's lease like every write of a worker, and
   * counts as progress (the take count goes back to 1). Throws when the lease is gone: nothing was
   * written, and another worker continues the task.
   */
  saveState(state: unknown): Promise<void>;
  /**
   * Runs one runner run of the task with the queue's guarantees (every finished turn checkpointed,
   * fenced; idempotency keys `runId:toolCallId`): if the task's checkpoint chain is this `runId`'s, the
   * run continues from it; if the task was parked in this run and a decision came, the run resumes
   * with it (once per take); else it starts. `onRestore` is given the run's messages so far when it
   * continues or resumes, so the kind can rebuild what it derives from them.
   */
  runStep(spec: TaskSpec & { runId: string }, options?: RunStepOptions): Promise<TaskResult>;
}

/** Options of {@link TaskKindTake.runStep}. */
export interface RunStepOptions {
  /** Told the run's messages so far (checkpointed or parked) before a continued or resumed run goes on. */
  onRestore?: (messages: readonly Message[]) => void;
}
