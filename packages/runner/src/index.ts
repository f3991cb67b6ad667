export { createRunner } from "./runner";
export {
  defineTool,
  ToolDefinitionError,
  type Tool,
  type ToolContext,
  type ToolDefinition,
  type ToolOutput,
  type ToolProgress,
} from "./define-tool";
export { resolveMainModel, resolveTaskModel, ModelResolutionError } from "./resolve";
export { MIN_PARK_KEY_BYTES } from "./park";
export { ParkedRunError, PARKED_RUN_ERROR_CODES, type ParkedRunErrorCode } from "./parked-run-error";
export { RunnerConfigError } from "./config-error";
export { grantTools, ToolGrantError } from "./tool-grant";
export type { CompactionReport } from "./compaction";
export type { CompactionOptions, CompactionRequest, CompactionSummary, Compactor } from "./compaction-options";
export { COMPACTION_PROMPT } from "./compactor";
export { COMPACTION_HEADER } from "./compaction-view";
export type { ParkedRun } from "./park-schema";
export { createFileParkLedger, createMemoryParkLedger } from "./park-ledger";
export { TaskSpecSchema } from "./schemas";
export { SPAN_NAMES } from "./tracer";
export type { RunEvent, VerdictInfo } from "./events";
export { runSubTask, SubRunError, SUB_RUN_ERROR_CODES, type SubRunErrorCode } from "./sub-run";
export { defineSubRunTool, type SubRunToolDefinition } from "./sub-run-tool";
export { pendingApproval, type PendingApproval } from "./sub-run-park";
export { DEFAULT_SUB_RUN_LIMITS } from "./sub-run-limits";
export { runHosted, type HostedResult, type HostedTaskSpec } from "./hosted-run";
export type { ChildRunStats, SubRunLimits, SubRunRecord, SubRunSpec, TaskPathEntry } from "./sub-run-types";
export { emptyRunStats, sumRunStats } from "./stats";
export {
  APPROVAL_KINDS,
  type ApprovalDecision,
  type ApprovalKind,
  type ApprovalRequest,
  type Approver,
  type AssistantMessage,
  type AutoModeOptions,
  type Budget,
  type Clock,
  type ContinueOptions,
  type HumanReviewGate,
  type ObserverStop,
  type Permission,
  PERMISSIONS,
  type ResumeDecision,
  type ResumeOptions,
  type RetryOptions,
  RUN_TERMINAL_CODES,
  type Runner,
  type RunnerDeps,
  type RunOptions,
  type RunStats,
  type RunTerminalCode,
  TASK_STATUSES,
  type TaskResult,
  type TaskSpec,
  type TaskStatus,
  type TaskStream,
  type Terminal,
  type TerminalCause,
  type ToolResultInfo,
} from "./types";
