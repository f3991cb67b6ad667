import type { ModelRef, RoleName } from "@x/llm-types";
import type { z } from "zod/v4";
import type { Tool } from "./define-tool";
import type { Budget, Permission, RunTerminalCode, TaskResult, TaskSpec, TaskStatus } from "./types";

/** One step of the path from the top-level run down to a sub-run: the call that started the next run. */
export interface TaskPathEntry {
  /** The run that made the call. */
  runId: string;
  /** The delegating tool's name in that run. */
  toolName: string;
  toolCallId: string;
}

/** What a child task is given: its own objective, tools, model and limits. */
export interface SubRunSpec {
  /** The child's objective: the first user message of its own conversation. */
  objective: string;
  /** The child's tools: a subset of the parent's, or new ones. Default none. */
  tools?: readonly Tool[];
  /** The child's model (ref, tier word, Model, or a fallback list). Default: the parent's `role`/model rules. */
  model?: ModelRef | readonly ModelRef[];
  /** Or the role whose model runs the child. */
  role?: RoleName;
  systemPrompt?: string;
  /** The child's own word per tool; it can only narrow what every ancestor set. */
  permissions?: Readonly<Record<string, Permission>>;
  /** The child's default permission, narrowed like `permissions`. */
  defaultPermission?: Permission;
  /**
   * The child's own rules, added to every ancestor's: its deny rules refuse calls, its allow rules
   * skip only its own classifier (each ancestor's station still judges the call).
   */
  autoModeRules?: TaskSpec["autoModeRules"];
  /** Default 10. */
  maxTurns?: number;
  maxTokens?: number;
  /** An explicit budget, capped by what the parent has left. */
  budget?: Budget;
  /** Or a share (0 < share ≤ 1) of what the parent has left when the child starts. */
  budgetShare?: number;
  /** The child's final answer must be JSON matching this schema (`result.structured`). */
  output?: z.ZodType;
  maxRepeatedCalls?: number;
  toolTimeoutMs?: number;
  modelTimeoutMs?: number;
  reasoning?: TaskSpec["reasoning"];
  onToolResult?: TaskSpec["onToolResult"];
}

/** Limits on sub-runs, set once per runner. */
export interface SubRunLimits {
  /** How deep a tree of runs may go; the top-level run is depth 0. Default 3. */
  maxDepth?: number;
  /** Children one run may have running at once; more wait their turn. Default 4. */
  maxConcurrent?: number;
  /** Children one run may start in total. Default 32. */
  maxChildren?: number;
}

/** A direct child's totals in its parent's `stats.children`: its own spend and all of its descendants'. */
export interface ChildRunStats {
  runId: string;
  toolName: string;
  toolCallId: string;
  status: TaskStatus;
  code: RunTerminalCode;
  tokens: number;
  costMicroUsd: number;
  modelCalls: number;
  classifierCalls: number;
  turns: number;
  /** Runs in the child's subtree, the child included. */
  tasks: number;
}

/** A child run's full result, kept in its parent's `subRuns`. */
export interface SubRunRecord {
  /** From the top-level run down to the call that started this child. */
  path: TaskPathEntry[];
  result: TaskResult;
}
