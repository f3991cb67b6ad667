export { createRunner } from "./entry/runner";
export {
  defineTool,
  ToolDefinitionError,
  type Tool,
  type ToolContext,
  type ToolDefinition,
  type ToolOutput,
  type ToolProgress,
} from "./vocabulary/define-tool";
export { resolveMainModel, resolveTaskModel, ModelResolutionError } from "./decisions/resolve";
export { MIN_PARK_KEY_BYTES } from "./effects/park";
export { ParkedRunError, PARKED_RUN_ERROR_CODES, type ParkedRunErrorCode } from "./vocabulary/parked-run-error";
export {
  ElicitationError,
  ELICITATION_ERROR_CODES,
  type ElicitationContent,
  type ElicitationDecision,
  type ElicitationErrorCode,
  type ElicitationForm,
  type ElicitationRequest,
  type ElicitationResult,
  type PendingElicitation,
} from "./vocabulary/elicitation";
export { RunnerConfigError } from "./vocabulary/config-error";
export { grantTools, ToolGrantError } from "./decisions/tool-grant";
export type { CompactionReport } from "./vocabulary/compaction-report";
export type { CompactedHistory } from "./vocabulary/compaction-state";
export type {
  CompactionOptions,
  CompactionRequest,
  CompactionSummary,
  Compactor,
} from "./vocabulary/compaction-options";
export { COMPACTION_PROMPT } from "./effects/compactor";
export { COMPACTION_HEADER } from "./state/compaction-view";
export type { ParkedRun } from "./vocabulary/park-schema";
export { createFileParkLedger, createMemoryParkLedger } from "./effects/park-ledgers";
export { TaskSpecSchema } from "./vocabulary/schemas";
export { SPAN_NAMES } from "./effects/tracer";
export { type RunEvent, VERDICT_SOURCES, type VerdictInfo, type VerdictSource } from "./vocabulary/events";
export { explainVerdict } from "./decisions/verdict-line";
export { runSubTask, SubRunError, SUB_RUN_ERROR_CODES, type SubRunErrorCode } from "./loop/sub-run";
export { defineSubRunTool, type SubRunToolDefinition } from "./loop/sub-run-tool";
export { pendingApproval, type PendingApproval } from "./loop/sub-run-park";
export { DEFAULT_SUB_RUN_LIMITS } from "./decisions/sub-run-limits";
export { runHosted, type HostedResult, type HostedTaskSpec } from "./entry/hosted-run";
export type { ChildRunStats, SubRunLimits, SubRunRecord, SubRunSpec, TaskPathEntry } from "./vocabulary/sub-run-types";
export { emptyRunStats, sumRunStats } from "./state/stats";
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
  type HumanReviewGate,
  type ObserverStop,
  type Permission,
  PERMISSIONS,
  type RetryOptions,
  RUN_TERMINAL_CODES,
  type RunnerDeps,
  type RunStats,
  type RunTerminalCode,
  TASK_STATUSES,
  type TaskResult,
  type TaskSpec,
  type TaskStatus,
  type Terminal,
  type TerminalCause,
  type ToolResultInfo,
} from "./vocabulary/types";
export type {
  ContinueOptions,
  ResumeDecision,
  ResumeOptions,
  Runner,
  RunOptions,
  TaskResultAccessor,
  TaskStream,
} from "./vocabulary/runner-api";
