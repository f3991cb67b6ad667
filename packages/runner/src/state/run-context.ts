import type { AncestorFrame, AutoModeGate, LoopGuard, ResolvedRetry, RunTrace } from "./run-parts";
import type { Approver, AutoModeOptions, Clock, TaskResult, TaskSpec } from "../vocabulary/types";
import type { ResumeDecision, ResumeOptions, RunOptions } from "../vocabulary/runner-api";
import type { TaskModel } from "../vocabulary/task-model";
import type { ResolvedCompaction } from "../vocabulary/compaction-options";
import type { Brain, EngineNotice, Message, ModelRouting, ToolCall, ToolSpec, Tracer } from "@x/llm-types";
import type { Tool } from "../vocabulary/define-tool";
import type { RunEvent } from "../vocabulary/events";
import type { ParkLedger } from "../vocabulary/park-ledger";
import type { RunSpec, RunState } from "../vocabulary/park-schema";
import type { CheckpointSink } from "../vocabulary/checkpoint";
import type { CheckpointSegmentSink } from "../vocabulary/checkpoint-segment";
import type { HistoryView } from "./history-view";
import type { LentMessages } from "./lent-messages";
import type { SubRunRecord, TaskPathEntry } from "../vocabulary/sub-run-types";

/**
 * How a run starts or resumes a child run on the same runner: the entry layer's own `execute` and
 * `resumeRun`, handed down in the deps, so the loop below never imports the entry points above it.
 */
export interface RunPort {
  execute(
    deps: ResolvedDeps,
    spec: TaskSpec,
    options: RunOptions,
    emit: (event: RunEvent) => void,
    lineage?: Lineage,
  ): Promise<TaskResult>;
  resume(
    deps: ResolvedDeps,
    raw: unknown,
    decision: ResumeDecision,
    options: ResumeOptions,
    emit: (event: RunEvent) => void,
    lineage?: Lineage,
  ): Promise<TaskResult>;
}

/** The runner's deps with defaults filled in; built once per runner. */
export interface ResolvedDeps {
  /** Starts and resumes child runs (see {@link RunPort}). */
  runs: RunPort;
  brains: ReadonlyMap<string, Brain>;
  routing: ModelRouting;
  clock: Clock;
  retry: ResolvedRetry;
  approver?: Approver;
  autoMode: AutoModeOptions;
  parkKey: Uint8Array | string;
  parkKeyEphemeral: boolean;
  parkTtlMs: number;
  parkLedger: ParkLedger;
  onNotice?: (notice: EngineNotice) => void;
  tracer?: Tracer;
  tools: readonly Tool[];
  /** Undefined: compaction is off. */
  compaction?: ResolvedCompaction;
  subRunLimits: { maxDepth: number; maxConcurrent: number; maxChildren: number };
}

/** Where a sub-run sits in its tree: its parent (live), the call that started it, its frozen ancestors. */
export interface Lineage {
  parent: RunContext;
  /** The parent's call that started this run. */
  toolCall: ToolCall;
  /** The parent's tool-call span: this run's span sits under it. */
  toolSpan: string;
  /** 1 for a child of a top-level run. */
  depth: number;
  /** Whether a park of this run may park the parent (not inside a read-only, parallel tool). */
  parkable: boolean;
  /** From the top-level run down to `toolCall`. */
  path: TaskPathEntry[];
  /** Every ancestor's classifier as it stood when this run started, nearest first. */
  ancestors: AncestorFrame[];
}

/** A run's book of its children: who runs now (for budgets), slots, full results, parks. */
export interface SubRunBook {
  running: Set<RunContext>;
  started: number;
  active: number;
  waiting: Array<() => void>;
  records: SubRunRecord[];
  /** A child that parked, by the parent's tool call id; that call parks the parent too. */
  parks: Map<string, TaskResult>;
}

/**
 * The `emit` of a run nobody listens to (`runTask`, `resume`): model calls then skip the brain's
 * deltas, which only a listener would see.
 */
export const noListener: (event: RunEvent) => void = () => undefined;

/** Everything one run carries while it runs. Lives for one runTask/resume call only. */
export interface RunContext {
  deps: ResolvedDeps;
  /** The JSON-safe spec, as a park would store it. */
  spec: RunSpec;
  output?: TaskSpec["output"];
  onToolResult?: TaskSpec["onToolResult"];
  /** The host's sink for checkpoints (`RunOptions.onCheckpoint`). */
  onCheckpoint?: CheckpointSink;
  /** The host's sink for checkpoint chain links (`RunOptions.onCheckpointSegment`). */
  onCheckpointSegment?: CheckpointSegmentSink;
  /** The last link this run wrote: the next one follows it. None yet ⇒ the next is a chain's link 0. */
  segmentChain?: { seq: number; signature: string };
  /** How many of `messages` the last checkpoint (or the run's start) already held. */
  checkpointedMessages: number;
  /** The run's verdicts (`verdictCount`) as of the last checkpoint, or the run's start. */
  checkpointedVerdicts: number;
  runId: string;
  sessionId?: string;
  signal: AbortSignal;
  /** The tools this run was granted (`grantTools`): the only ones it is offered or may run. */
  tools: readonly Tool[];
  /** The host's tools the grant was drawn from; a call to one not granted is `forbidden`. */
  onHand: readonly Tool[];
  toolSpecs: ToolSpec[];
  systemPrompt?: string;
  taskModel: TaskModel;
  /** Index into [model, ...fallbacks]: a fallback sticks for the rest of the run. */
  chainIndex: number;
  /** Output cap after a max-tokens recovery raised it. */
  maxTokensNow?: number;
  /**
   * The host's history as it was when the run started (the {@link HistoryView}'s entries, never
   * changed: what the host does to its own array later reaches no run). A park or a checkpoint
   * holds a JSON copy, so no consumer can change it under a later run either.
   */
  history: readonly Message[];
  /** What every model call needs from `history`, derived once (see {@link HistoryView}). */
  historyView: HistoryView;
  messages: Message[];
  /**
   * The run's compaction options (undefined: off): the runner's, with the tool-result cap fitted
   * to this run's window (`fitToWindow`).
   */
  compactionOptions?: ResolvedCompaction;
  /** The messages array lent to brains that borrow their context, once the run has made one. */
  lent?: LentMessages;
  state: RunState;
  guard: LoopGuard;
  tracer: RunTrace;
  runSpan: string;
  turnSpan?: string;
  autoMode?: AutoModeGate;
  /** Set when this run is a sub-run. */
  lineage?: Lineage;
  /** Made when this run starts its first child. */
  subRuns?: SubRunBook;
  emit(event: RunEvent): void;
  notice(notice: Omit<EngineNotice, "sessionId" | "runId">): void;
}
