import type { ApprovalDecision, RunEvent, TaskPathEntry, TaskResult } from "@x/runner";

/** A call waiting for a person, whole: what the inbox shows and what approve / deny decide. */
export interface InboxItem {
  /** The park id: what a decision names. */
  id: string;
  /** The top-level run the park belongs to (the live view after a decision is this run's). */
  runId: string;
  /** Where it came from, in a few words (`demo approval`, `queue task 42`, …). */
  label: string;
  /** ISO time the run parked. */
  createdAt: string;
  /** ISO time after which the park can no longer be resumed. */
  expiresAt?: string;
  tool: string;
  toolCallId: string;
  /** Every argument, never cut. */
  arguments: Record<string, unknown>;
  /** Why a person is asked (`ask`, `auto_unavailable`, `denial_limit`, …). */
  kind: string;
  /** The classifier's reason, when it gave one. */
  reason?: string;
  /** The delegating calls from the top-level run down to the run that made this call; empty at the top. */
  path: TaskPathEntry[];
  /** For a write onto an existing file: the change as a unified diff. */
  diff?: string;
  /** What the run spent before it parked, in integer micro-dollars. */
  costMicroUsd?: number;
}

/** Where parked calls come from, and how a decision resumes one (in this process or through a queue). */
export interface ApprovalInbox {
  /** Every call waiting for a decision now. */
  list(): Promise<InboxItem[]>;
  /**
   * Decides one, exactly once (the runner's park ledger refuses a second decision): resumes the run and reports
   * its events through `emit` as they are known. Resolves with the run's result; a refused park throws.
   */
  decide(id: string, decision: ApprovalDecision, emit: (event: RunEvent) => void): Promise<TaskResult | undefined>;
}

/** A run or task as the run list and the cost view show it. */
export interface RunSummary {
  id: string;
  label: string;
  status: string;
  /** Which source listed it (`runs`, `queue`, `studio`). */
  source: string;
  /** ISO time it started (or was queued). */
  at: string;
  tokens?: number;
  costMicroUsd?: number;
}

/** Runs and tasks kept somewhere else: the example CLI's folder, the queue's PostgreSQL. */
export interface RunSource {
  name: string;
  list(): Promise<RunSummary[]>;
}

export type { TaskResult };
