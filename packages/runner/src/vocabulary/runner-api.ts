import type { ModelRef, RoleName } from "@x/llm-types";
import type * as z4 from "zod/v4/core";
import type { CheckpointSink } from "./checkpoint";
import type { CheckpointSegmentSink } from "./checkpoint-segment";
import type { Tool } from "./define-tool";
import type { ElicitationDecision } from "./elicitation";
import type { RunEvent } from "./events";
import type { TaskModel } from "./task-model";
import type { ApprovalDecision, TaskResult, TaskSpec } from "./types";

// The runner's own surface: what `createRunner` returns, and the options its calls take.

export interface RunOptions {
  signal?: AbortSignal;
  /**
   * Receives a signed checkpoint when the model's answer is accepted, before any of its calls runs
   * (a run continued from there runs them under the same ids, and never asks for that answer again),
   * and once their results are in, before the next model call; the run waits for it. Results of
   * read-only tools alone, with no person's or classifier's verdict since the last checkpoint, wait
   * for the next answer's: a crash before it only runs those calls again, which have no effect to
   * repeat, so a read-only tool turn is one write. Store it
   * durably and a run whose process died goes on with `continueRun` from its last checkpoint.
   */
  onCheckpoint?: CheckpointSink;
  /**
   * The append-only form of `onCheckpoint`, for long runs: at each of its checkpoints, one signed
   * link holding only what the run added since the link before (the first link holds the run so
   * far), chained to that link. Store the links in order and hand them to `continueRun` as an array: what a turn
   * costs to make durable then does not grow with the run. A continued or resumed run starts a new
   * chain (its link 0 holds everything), which replaces the old one.
   */
  onCheckpointSegment?: CheckpointSegmentSink;
}

/**
 * What `resume` is told about the parked call: the same decision a live approver answers — an
 * approval's `approve` / `deny`, or an elicitation's `answer` / `decline` (`deny` answers it as denied).
 */
export type ResumeDecision = ApprovalDecision | ElicitationDecision;

/** What a resumed run needs that JSON cannot carry. */
export interface ResumeOptions {
  /**
   * The host's tools on hand (default: the runner's `tools`). The run is offered only those its
   * signed `spec.toolNames` grant; one it was granted and this list lacks refuses the resume
   * (`unknown_tool`) before anything is claimed.
   */
  tools?: readonly Tool[];
  output?: z4.$ZodType;
  onToolResult?: TaskSpec["onToolResult"];
  signal?: AbortSignal;
  /** As `RunOptions.onCheckpoint`: the first checkpoint follows the decided call's result. */
  onCheckpoint?: CheckpointSink;
  /** As `RunOptions.onCheckpointSegment`: the resumed run's link 0 follows the decided call's result. */
  onCheckpointSegment?: CheckpointSegmentSink;
}

/** What a continued run needs that JSON cannot carry: as for `resume`. */
export type ContinueOptions = ResumeOptions;

/**
 * A run's result, read by calling it — `await stream.result()` — as a brain stream's `result()` is read.
 * It is also the promise itself, so `await stream.result` (the shape before 0.1) keeps working; that
 * form is deprecated and goes in a later minor.
 */
export type TaskResultAccessor<T = unknown> = (() => Promise<TaskResult<T>>) & Promise<TaskResult<T>>;

/** A live run's events plus its result. */
export interface TaskStream<T = unknown> extends AsyncIterable<RunEvent> {
  /** The run's result once it ends: `await stream.result()`. Rejects (and ends the events) when the run throws. */
  result: TaskResultAccessor<T>;
}

/**
 * The runner. With an `output` schema on the spec (or on a resume's options), the result's
 * `structured` is typed as what that schema parses to; without one it is `unknown`.
 */
export interface Runner {
  runTask<O extends z4.$ZodType = z4.$ZodType>(
    spec: TaskSpec & { output?: O },
    options?: RunOptions,
  ): Promise<TaskResult<z4.output<O>>>;
  streamTask<O extends z4.$ZodType = z4.$ZodType>(
    spec: TaskSpec & { output?: O },
    options?: RunOptions,
  ): TaskStream<z4.output<O>>;
  /**
   * Which model a spec would run on, from this runner's catalog, roles and tiers — the same
   * resolver `runTask` uses (`resolveTaskModel`). Throws `ModelResolutionError` when none resolves.
   */
  resolveModel(spec: { model?: ModelRef | readonly ModelRef[]; role?: RoleName }): TaskModel;
  /** Continues a parked run. Throws `ParkedRunError` (and changes nothing) on a bad, replayed or expired park. */
  resume<O extends z4.$ZodType = z4.$ZodType>(
    parked: unknown,
    decision: ResumeDecision,
    options?: ResumeOptions & { output?: O },
  ): Promise<TaskResult<z4.output<O>>>;
  /**
   * Continues a run from a checkpoint (`RunOptions.onCheckpoint`) or the links of its checkpoint
   * chain in order (`RunOptions.onCheckpointSegment`), in any process with the same park key.
   * Throws `ParkedRunError` (`invalid_schema`, `bad_signature`) on a bad checkpoint or a broken chain.
   */
  continueRun<O extends z4.$ZodType = z4.$ZodType>(
    checkpoint: unknown,
    options?: ContinueOptions & { output?: O },
  ): Promise<TaskResult<z4.output<O>>>;
}
