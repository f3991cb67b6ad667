import type { ApprovalDecision, TaskResult } from "@x/runner";
import { ParkedRunSchema } from "@x/runner/backend";
import type { z } from "zod/v4";

/**
 * A task as it waits in the queue: the JSON-safe part of a TaskSpec (the same fields a park keeps),
 * with its tools by name — each worker registers the tools themselves.
 */
export const QueuedSpecSchema = ParkedRunSchema.shape.spec.omit({ runId: true, hasOutput: true });
export type QueuedSpec = z.infer<typeof QueuedSpecSchema>;

/** The closed set of states a task row moves through. */
export const TASK_STATES = [
  "queued",
  "running",
  "parked",
  "resuming",
  "completed",
  "failed",
  "dead_letter",
  "unknown_outcome",
] as const;
export type TaskState = (typeof TASK_STATES)[number];

/** States after which nothing runs again unless a person acts. */
export const FINAL_STATES: ReadonlySet<TaskState> = new Set(["completed", "failed", "dead_letter"]);

/** One task as the queue reports it to the host that owns it. */
export interface QueuedTask {
  id: string;
  owner: string;
  scope: string | null;
  status: TaskState;
  spec: QueuedSpec;
  /** The task's kind (`EnqueueOptions.kind`), or `null` for one runner run. */
  kind: string | null;
  /** Set once the task ended (completed, failed, or parked: the parked run is in `result.parked`). */
  result: TaskResult | null;
  /** Why a task is `failed`, `dead_letter` or `unknown_outcome`, in a sentence. */
  error: string | null;
  /** Times a worker took the task since it last made progress (a finished turn, a park, a decision). */
  attempts: number;
  /** The decision handed to `approve`, while the resume waits or runs. */
  decision: ApprovalDecision | null;
  createdAt: Date;
  updatedAt: Date;
}
