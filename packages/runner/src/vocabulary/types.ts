import type { CompactionOptions } from "./compaction-options";
import type { CompactedHistory } from "./compaction-state";
import type { CompactionReport } from "./compaction-report";
import type {
  AssistantMessage,
  Brain,
  ErrorKind,
  Message,
  MessageProvenance,
  Model,
  ModelCatalog,
  ModelRef,
  NoticeSink,
  ReasoningLevel,
  RoleName,
  Roles,
  TierBindings,
  ToolCall,
  ToolResultMessage,
  Tracer,
  Usage,
} from "@x/llm-types";
import type { AutoModeClassifierFallback, AutoModeRule } from "@x/classifier-ladder";
import type * as z4 from "zod/v4/core";
import type { Tool } from "./define-tool";
import type { ParkLedger } from "./park-ledger";
import type { ParkedRun } from "./park-schema";
import type { ElicitationDecision, ElicitationRequest } from "./elicitation";
import type { ChildRunStats, SubRunLimits, SubRunRecord, TaskPathEntry } from "./sub-run-types";

/**
 * How a tool call is cleared: run it (`allow`), ask a person (`ask`), let the auto-mode classifier
 * judge it (`auto`), or never run it (`deny`: the host forbids the tool outright — it is not offered
 * to the model, and a call to it anyway is answered with a `forbidden` error result).
 */
export const PERMISSIONS = ["allow", "ask", "auto", "deny"] as const;
export type Permission = (typeof PERMISSIONS)[number];

/**
 * Why a person is asked: `ask` (the permission), `auto_unavailable` / `auto_parse_error` (the
 * classifier could not rule), `denial_limit` (the classifier kept blocking), `appeal` (the classifier
 * blocked the call and the host lets a person overrule it: `AutoModeOptions.appeal`), `elicitation`
 * (a running tool asks the person a question: `ToolContext.elicit`).
 */
export const APPROVAL_KINDS = [
  "ask",
  "auto_unavailable",
  "auto_parse_error",
  "denial_limit",
  "appeal",
  "elicitation",
] as const;
export type ApprovalKind = (typeof APPROVAL_KINDS)[number];

/** Time, injectable so retries and parks are testable without waiting. */
export interface Clock {
  now(): number;
  /** Resolves after `ms`; rejects (or resolves early) when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** A hard stop checked before every model call, auto mode's classifier calls included. */
export interface Budget {
  /** Total tokens (input + output + cache) the run may spend. */
  tokens?: number;
  /** Integer micro-dollars (1 USD = 1,000,000) the run may spend. */
  microUsd?: number;
}

/** What the `onToolResult` observer sees after each tool result is appended. */
export interface ToolResultInfo {
  toolCall: ToolCall;
  result: ToolResultMessage;
  /** How many tool calls ran (or were refused) in this run so far, this one included. */
  index: number;
  turn: number;
  runId: string;
}

/** Returned by `onToolResult` to end the run now, with status `stuck` and this code. */
export interface ObserverStop {
  stop: { code: string; message: string };
}

export interface TaskSpec {
  /** The user's request for this run: appended after `history` as a user message. */
  objective: string;
  /**
   * Who wrote `objective`, when not (only) the user: a layer that puts its own text there (teacher
   * advice, recalled strategies ahead of the task) says so, and auto mode's classifier then shows only
   * the user's part as the user's. Default `"user"`. Recorded on the message; never sent to a model.
   */
  objectiveProvenance?: MessageProvenance;
  /** The main model (a catalog key, `provider/id`, a tier word, or a Model); a list is a fallback chain. */
  model?: ModelRef | readonly ModelRef[];
  /** Or: the role whose model runs this task (default `default`). Ignored when `model` is set. */
  role?: RoleName;
  /** The tools the host has on hand for this run. All of them are offered unless `toolNames` says which. */
  tools?: readonly Tool[];
  /**
   * The names of `tools` this run is granted: it is offered exactly these (and so are its resumes,
   * continuations and queue retakes, which carry the grant signed). A name `tools` lacks throws
   * `ToolGrantError` (`tool_unavailable`) before anything runs; a call to a tool on hand but not
   * granted is answered `forbidden`. Default: every tool in `tools`.
   */
  toolNames?: readonly string[];
  /**
   * The last run's `result.compaction.view`, when `history` ends with that run's messages: this
   * run starts from the same compacted view of the session instead of sending the whole history.
   */
  compactedHistory?: CompactedHistory;
  /** Prior conversation; never rewritten. The result's `messages` are what to append to it. */
  history?: readonly Message[];
  systemPrompt?: string;
  /** Per tool name. Unlisted tools take the tool's own `permission`, then `defaultPermission`. */
  permissions?: Readonly<Record<string, Permission>>;
  /** Default `allow`. */
  defaultPermission?: Permission;
  /**
   * Host rules for tool calls, by id (`AutoModeRulesSchema`): a matching `deny` refuses the call under any permission,
   * with no classifier asked and no person able to approve it, here and in every sub-run; an `allow` skips this run's
   * classifier for an `auto` call, and nothing else (an ancestor's classifier still judges a sub-run's call).
   */
  autoModeRules?: readonly AutoModeRule[];
  /** Model calls that produce a turn. Default 20. */
  maxTurns?: number;
  /** Output cap per model call. Default: the model's `maxTokens`. */
  maxTokens?: number;
  reasoning?: ReasoningLevel;
  budget?: Budget;
  /** The final answer must be JSON matching this schema; it comes back parsed as `structured`. */
  output?: z4.$ZodType;
  /** Identical tool calls in a row before the model gets a note; one more ends the run `stuck`. Default 3. */
  maxRepeatedCalls?: number;
  /** Default per-tool timeout (a tool's own `timeoutMs` wins). Default 120 000. */
  toolTimeoutMs?: number;
  /** Whole-call deadline for each model call. */
  modelTimeoutMs?: number;
  /** Observes every tool result; may stop the run early (teacher mode's stuck detector uses it). */
  onToolResult?: (info: ToolResultInfo) => void | ObserverStop | Promise<void | ObserverStop>;
  sessionId?: string;
  /** Default: a random id. */
  runId?: string;
}

/** The closed set of ways a run ends. */
export const TASK_STATUSES = [
  "completed",
  "failed",
  "blocked",
  "aborted",
  "parked",
  "max_turns",
  "budget_exhausted",
  "stuck",
] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** Stable codes, finer than the status. */
export const RUN_TERMINAL_CODES = [
  "completed",
  "max_turns",
  "loop_detected",
  "observer_stop",
  "max_tokens",
  "empty_answer",
  "degenerate_repetition",
  "model_error",
  "stream_cut",
  "budget_tokens",
  "budget_cost",
  "denial_limit",
  "aborted",
  "awaiting_approval",
  "output_invalid",
  "no_model",
  "no_brain",
  "config_invalid",
  "internal_error",
] as const;
export type RunTerminalCode = (typeof RUN_TERMINAL_CODES)[number];

/** Which part of the system ended the run. */
export type TerminalCause =
  "model" | "guard" | "budget" | "approval" | "classifier" | "host" | "output" | "config" | "observer" | "done";

export interface Terminal {
  code: RunTerminalCode;
  cause: TerminalCause;
  message: string;
  /** The provider failure behind a `model_error`, why a `stream_cut` stream was cut, or a recovery that ran out. */
  errorKind?: ErrorKind;
  /** The code an `onToolResult` observer stopped with. */
  observerCode?: string;
}

export interface HumanReviewGate {
  kind: ApprovalKind;
  waitMs: number;
  decision?: "approve" | "deny" | "unavailable" | "answer" | "decline";
}

export interface RunStats {
  /** Every token a provider could bill: every model call's, the classifier's and failed calls' included. */
  tokens: number;
  /** Runs this result covers (1; a teacher sums them). */
  tasks: number;
  costUsd: number;
  costMicroUsd: number;
  /** Assistant turns appended to the history. */
  turns: number;
  toolCalls: number;
  modelCalls: number;
  retries: number;
  classifierCalls: number;
  usage: Usage;
  /**
   * The brains' estimate for calls no provider served (refused, unreachable, reset before any
   * reply): never billed, so kept out of `tokens`, the cost and every budget. Absent when none.
   */
  unbilled?: Usage;
  humanReview: { count: number; totalWaitMs: number; gates: HumanReviewGate[] };
  /** Per direct child run (sub-run): its subtree's totals, which the totals above include. */
  children?: ChildRunStats[];
}

export interface TaskResult<T = unknown> {
  status: TaskStatus;
  terminal: Terminal;
  /** Text of the last assistant turn. */
  output: string;
  /** The parsed final answer when the spec had an `output` schema. */
  structured?: T;
  /** New messages only (the objective included): append them to `history` to continue. */
  messages: Message[];
  stats: RunStats;
  runId: string;
  sessionId?: string;
  /** The model the last turn ran on. */
  model?: Model;
  /** Set when `status` is `parked`: JSON to store and hand to `resume`. */
  parked?: ParkedRun;
  /** What compaction did (absent when the runner's `compaction` is off). */
  compaction?: CompactionReport;
  /** The full results of the child runs this run started (in this process), in start order. */
  subRuns?: SubRunRecord[];
}

export interface ApprovalRequest {
  toolCall: ToolCall;
  /** Why a person is asked. */
  kind: ApprovalKind;
  /** The classifier's reason, on `denial_limit`. */
  reason?: string;
  runId: string;
  sessionId?: string;
  signal: AbortSignal;
  /** Set for a call inside a sub-run: the delegating calls from the top-level run down to this one. */
  path?: readonly TaskPathEntry[];
  /**
   * On kind `elicitation`: the running tool's question and its form. Answer it with an
   * `ElicitationDecision` (`approve` cannot answer a question: the run parks instead; `deny` declines).
   */
  elicitation?: ElicitationRequest;
}

export interface ApprovalDecision {
  decision: "approve" | "deny";
  reason?: string;
}

/** A live approver: a person answering now. `unavailable` ⇒ the run parks. */
export type Approver = (request: ApprovalRequest) => Promise<ApprovalDecision | ElicitationDecision | "unavailable">;

export interface AutoModeOptions {
  /** `main` (default): a failing classifier falls back to the run's main model; `none`: it does not. */
  classifierFallback?: AutoModeClassifierFallback;
  /** Per-classification deadline. */
  timeoutMs?: number;
  /** Classifier blocks in a row before the run escalates. Default 3. */
  maxConsecutiveDenials?: number;
  /** Classifier blocks in total before the run escalates. Default 20. */
  maxTotalDenials?: number;
  /**
   * A classifier's block goes to a person (the live approver, or a park) as an `appeal`, who may
   * overrule it; the denial limit then counts only the blocks a person upheld. A host rule's deny is
   * never appealed. Default `false`: a block stands.
   */
  appeal?: boolean;
}

export interface RetryOptions {
  /** Retries per model on a retryable failure. Default 2. */
  maxRetries?: number;
  /** First backoff. Default 500 ms; doubles, with ±50% jitter. */
  baseDelayMs?: number;
  /**
   * Default 30 000 ms. A provider's retry-after up to this is honoured; a longer one is not retried (the chain moves
   * on).
   */
  maxDelayMs?: number;
  /** Jitter source in [0, 1). Default Math.random. */
  random?: () => number;
}

export interface RunnerDeps {
  /**
   * Keeps long runs inside the model's context window: compaction on the `summarize` role and a cap
   * on huge tool results. On by default; `false` turns both off.
   */
  compaction?: CompactionOptions | false;
  /** Brains by api (`openai-completions`, `faux`, ...), as a record or a list. */
  brains: Readonly<Record<string, Brain>> | readonly Brain[];
  models: ModelCatalog;
  roles?: Roles;
  tiers?: TierBindings;
  onNotice?: NoticeSink;
  tracer?: Tracer;
  approver?: Approver;
  autoMode?: AutoModeOptions;
  retry?: RetryOptions;
  clock?: Clock;
  /**
   * HMAC key for parked runs, at least 16 bytes (`RunnerConfigError` otherwise). Default: a random
   * key, so a park resumes only in this runner.
   */
  parkKey?: string | Uint8Array;
  /**
   * How long a park may be resumed, a positive whole number of ms. Default 24 h (86 400 000): an
   * approval meant to wait longer — a weekend, a holiday — needs a longer one.
   */
  parkTtlMs?: number;
  /**
   * Consumed park ids. Default: in memory, per runner — enough for a random key. A shared `parkKey`
   * requires one (`RunnerConfigError` `config.park_ledger_required` otherwise): a ledger every
   * process shares, or `createMemoryParkLedger()` to accept at-most-once per process.
   */
  parkLedger?: ParkLedger;
  /** Tools a resumed run may use when `resume` is given none. */
  tools?: readonly Tool[];
  /** Depth, concurrency and count limits for sub-runs. */
  subRuns?: SubRunLimits;
}

export type { AssistantMessage };
