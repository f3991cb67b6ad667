import type { ApprovalDecision, TaskResult } from "@x/runner";
import type { QueuedSpec, QueuedTask, TaskState } from "./queued-task";

/** A tasks row as `pg` returns it. */
export interface TaskRow {
  id: string;
  owner: string;
  scope: string | null;
  status: TaskState;
  spec: QueuedSpec;
  kind: string | null;
  driver_state: unknown;
  checkpoint: unknown;
  parked: unknown;
  park_id: string | null;
  decision: ApprovalDecision | null;
  result: TaskResult | null;
  error: string | null;
  attempts: number;
  lease_owner: string | null;
  lease_until: Date | null;
  created_at: Date;
  updated_at: Date;
}

export function rowToTask(row: TaskRow): QueuedTask {
  return {
    id: row.id,
    owner: row.owner,
    scope: row.scope,
    status: row.status,
    spec: row.spec,
    kind: row.kind,
    result: row.result,
    error: row.error,
    attempts: row.attempts,
    decision: row.decision,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
