import type { ResolvedCompaction } from "./compaction-options";
import type { Brain, EngineNotice, Message, ModelRouting, ToolSpec, Tracer } from "@x/llm-types";
import type { Tool } from "./define-tool";
import type { RunEvent } from "./events";
import type { LoopGuard } from "./loop-guard";
import type { ParkLedger } from "./park-ledger";
import type { ParkedSpec, RunState } from "./park-schema";
import type { CheckpointSink } from "./checkpoint";
import type { TaskModel } from "./resolve";
import type { ResolvedRetry } from "./retry";
import type { RunTracer } from "./tracer";
import type { Approver, AutoModeOptions, Clock, TaskSpec } from "./types";
import type { AutoModeGate } from "./permissions";

/** The runner's deps with defaults filled in; built once per runner. */
export interface ResolvedDeps {
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
  /** No ledger was given: replays are stopped inside this runner only. */
  parkLedgerEphemeral: boolean;
  onNotice?: (notice: EngineNotice) => void;
  tracer?: Tracer;
  tools: readonly Tool[];
  /** Undefined: compaction is off. */
  compaction?: ResolvedCompaction;
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
  spec: ParkedSpec;
  output?: TaskSpec["output"];
  onToolResult?: TaskSpec["onToolResult"];
  /** The host's sink for checkpoints after each finished turn (`RunOptions.onCheckpoint`). */
  onCheckpoint?: CheckpointSink;
  /** How many of `messages` the last checkpoint (or the run's start) already held. */
  checkpointedMessages: number;
  runId: string;
  sessionId?: string;
  signal: AbortSignal;
  tools: readonly Tool[];
  toolSpecs: ToolSpec[];
  systemPrompt?: string;
  taskModel: TaskModel;
  /** Index into [model, ...fallbacks]: a fallback sticks for the rest of the run. */
  chainIndex: number;
  /** Output cap after a max-tokens recovery raised it. */
  maxTokensNow?: number;
  history: Message[];
  messages: Message[];
  state: RunState;
  guard: LoopGuard;
  tracer: RunTracer;
  runSpan: string;
  turnSpan?: string;
  autoMode?: AutoModeGate;
  emit(event: RunEvent): void;
  notice(notice: Omit<EngineNotice, "sessionId" | "runId">): void;
}
