import { resolveCompaction } from "../vocabulary/compaction-options";
import { randomUUID } from "node:crypto";
import { parseWith, type Brain, type Message, issuesLine, describeError, SchemaValidationError } from "@x/llm-types";
import { z } from "zod/v4";
import { autoModeClassifierFallbackOf } from "@x/classifier-ladder";
import { systemClock } from "../effects/clock";
import { RunnerConfigError } from "../vocabulary/config-error";
import { resultAccessor } from "./result-accessor";
import { EventChannel, type RunEvent } from "../vocabulary/events";
import { historyView } from "../state/history-view";
import { runTurns } from "../loop/loop";
import { checkParkKey, randomParkKey } from "../effects/park";
import { createMemoryParkLedger } from "../effects/park-ledgers";
import type { RunSpec, RunState } from "../vocabulary/park-schema";
import { emptyCompactionState } from "../vocabulary/compaction-state";
import { resolveTaskModel } from "../decisions/resolve";
import { continueRun } from "./continue-run";
import { resumeRun } from "./resume";
import { resolveRetry } from "../decisions/retry";
import { noListener, type Lineage, type ResolvedDeps } from "../state/run-context";
import { hostableRunner } from "./hosted-run";
import { subRunLimitsOf } from "../decisions/sub-run-limits";
import { buildContext, drive, failedBeforeStart, freshState } from "../loop/run-lifecycle";
import { TaskSpecSchema } from "../vocabulary/schemas";
import { grantTools } from "../decisions/tool-grant";
import type { Tool } from "../vocabulary/define-tool";

import type { AutoModeOptions, RunnerDeps, TaskResult, TaskSpec } from "../vocabulary/types";
import type { Runner, RunOptions, TaskStream } from "../vocabulary/runner-api";

const DAY_MS = 24 * 60 * 60 * 1000;

function parkTtl(ttlMs: unknown): number {
  if (ttlMs === undefined) return DAY_MS;
  if (typeof ttlMs !== "number" || !Number.isSafeInteger(ttlMs) || ttlMs <= 0) {
    throw new RunnerConfigError(
      "config.park_ttl_invalid",
      "parkTtlMs must be a positive whole number of milliseconds, " +
        `got ${typeof ttlMs === "number" ? ttlMs : typeof ttlMs}`,
    );
  }
  return ttlMs;
}

/**
 * The auto-mode knobs' NAMES, checked when the runner is made: a misspelt `classifierFallback` read
 * as absent would let the main model classify where the deployment said "none". Their values are
 * screened by classifier-ladder's own rules (one rule, one place): `classifierFallback` here as well,
 * the limits and the timeout where they are used.
 */
const AutoModeKeysSchema = z
  .strictObject({
    classifierFallback: z.unknown(),
    timeoutMs: z.unknown(),
    maxConsecutiveDenials: z.unknown(),
    maxTotalDenials: z.unknown(),
    // A switch that lets a person overrule the classifier: only a real boolean turns it on.
    appeal: z.boolean(),
  })
  .partial();

function autoModeOf(options: RunnerDeps["autoMode"]): AutoModeOptions {
  const checked = AutoModeKeysSchema.safeParse(options ?? {});
  if (!checked.success) {
    throw new RunnerConfigError("config.auto_mode_invalid", `autoMode: ${issuesLine(checked.error)}`);
  }
  // The one screen classifier-ladder applies when the decider is armed, applied now as well: a bad
  // value must stop the runner being made, not the first gated call of some later run.
  try {
    autoModeClassifierFallbackOf(options?.classifierFallback);
  } catch (error) {
    throw new RunnerConfigError("config.auto_mode_classifier_fallback_invalid", `autoMode: ${describeError(error)}`);
  }
  return options ?? {};
}

/**
 * A shared `parkKey` lets any process resume a park; without a ledger those processes share, none
 * could tell whether another already ran the call — so such a runner could park but never resume.
 * Refused here, where the setting is made, not at the first `resume` days later.
 */
function refuseUnresumableParks(deps: RunnerDeps): void {
  if (deps.parkKey === undefined || deps.parkLedger !== undefined) return;
  throw new RunnerConfigError(
    "config.park_ledger_required",
    [
      "a runner with a shared `parkKey` needs a `parkLedger` every process that resumes",
      "shares (createFileParkLedger, or a database one such as @x/queue-postgres's), or",
      "`createMemoryParkLedger()` to accept at-most-once per process; without one its parks",
      "could be resumed twice",
    ].join(" "),
  );
}

/**
 * A catalog model whose wire no registered brain speaks could only ever end its runs `failed`/`no_brain`
 * with an empty output (an `api` typo, or the brain left out of `brains`): refused here, where it is written.
 */
function refuseModelsWithoutBrain(models: RunnerDeps["models"], brains: ReadonlyMap<string, Brain>): void {
  const orphans = Object.entries(models).filter(([, model]) => !brains.has(model.api));
  if (orphans.length === 0) return;
  const registered = brains.size > 0 ? [...brains.keys()].map((api) => `"${api}"`).join(", ") : "none";
  throw new RunnerConfigError(
    "config.no_brain",
    `${orphans.map(([key, model]) => `models.${key} (api "${model.api}")`).join(", ")}: no brain registered for ` +
      `that api; brains are registered for ${registered}. Add the brain to \`brains\`, or fix the model's api.`,
  );
}

function resolveDeps(deps: RunnerDeps): ResolvedDeps {
  refuseUnresumableParks(deps);
  const brains = new Map<string, Brain>();
  const list: ReadonlyArray<readonly [string, Brain]> = Array.isArray(deps.brains)
    ? (deps.brains as readonly Brain[]).map((brain) => [brain.api, brain] as const)
    : Object.entries(deps.brains as Readonly<Record<string, Brain>>);
  for (const [api, brain] of list) brains.set(api, brain);
  refuseModelsWithoutBrain(deps.models, brains);
  return {
    runs: { execute, resume: resumeRun },
    brains,
    routing: {
      models: deps.models,
      ...(deps.roles ? { roles: deps.roles } : {}),
      ...(deps.tiers ? { tiers: deps.tiers } : {}),
    },
    clock: deps.clock ?? systemClock,
    retry: resolveRetry(deps.retry),
    compaction: resolveCompaction(deps.compaction),
    ...(deps.approver ? { approver: deps.approver } : {}),
    autoMode: autoModeOf(deps.autoMode),
    parkKey: deps.parkKey === undefined ? randomParkKey() : checkParkKey(deps.parkKey),
    parkKeyEphemeral: deps.parkKey === undefined,
    parkTtlMs: parkTtl(deps.parkTtlMs),
    parkLedger: deps.parkLedger ?? createMemoryParkLedger(),
    ...(deps.onNotice ? { onNotice: deps.onNotice } : {}),
    ...(deps.tracer ? { tracer: deps.tracer } : {}),
    tools: deps.tools ?? [],
    subRunLimits: subRunLimitsOf(deps.subRuns),
  };
}

/** The JSON-safe part of a spec, as a park stores it. */
function runSpecOf(spec: TaskSpec, granted: readonly Tool[], runId: string, lineage: Lineage | undefined): RunSpec {
  const {
    tools: _tools,
    toolNames: _names,
    history: _history,
    compactedHistory: _view,
    output,
    onToolResult: _observer,
    model,
    ...rest
  } = spec;
  const out: RunSpec = {
    ...rest,
    runId,
    toolNames: granted.map((tool) => tool.name),
    hasOutput: output !== undefined,
    ...(lineage ? { parentRunId: lineage.parent.runId } : {}),
  };
  if (model !== undefined) out.model = (Array.isArray(model) ? [...(model as unknown[])] : model) as RunSpec["model"];
  return out;
}

/**
 * A fresh run's state: empty, or — continuing a session — starting from the compacted view the
 * session's last run left (`compactedHistory`), which must fall inside the history it came with.
 */
function startState(spec: TaskSpec, historyLength: number, deps: ResolvedDeps): RunState {
  const state = freshState();
  const carried = spec.compactedHistory;
  if (!carried || !deps.compaction) return state;
  if (carried.cut > historyLength)
    throw new SchemaValidationError("task spec", [
      { path: "compactedHistory.cut", message: `${carried.cut} is past the history's ${historyLength} messages` },
    ]);
  return { ...state, compaction: { ...emptyCompactionState(), cut: carried.cut, summary: carried.summary } };
}

/** One run from a spec: a top-level task, or a sub-run when `lineage` places it in a tree. */
export async function execute(
  deps: ResolvedDeps,
  rawSpec: TaskSpec,
  options: RunOptions,
  emit: (event: RunEvent) => void,
  lineage?: Lineage,
): Promise<TaskResult> {
  parseWith(TaskSpecSchema, rawSpec, "task spec");
  const history = historyView(rawSpec.history ?? [], deps.compaction, "task spec");
  const runId = rawSpec.runId ?? randomUUID();
  const onHand = rawSpec.tools ?? [];
  const tools = rawSpec.toolNames ? grantTools(rawSpec.toolNames, onHand, "the task") : onHand;
  const spec = runSpecOf(rawSpec, tools, runId, lineage);
  const messages: Message[] = [
    {
      role: "user",
      content: rawSpec.objective,
      timestamp: deps.clock.now(),
      provenance: rawSpec.objectiveProvenance ?? "user",
    },
  ];
  const ctx = buildContext(deps, {
    spec,
    tools,
    onHand,
    history,
    messages,
    state: startState(rawSpec, history.entries.length, deps),
    signal: options.signal ?? new AbortController().signal,
    emit,
    ...(options.onCheckpoint ? { onCheckpoint: options.onCheckpoint } : {}),
    ...(options.onCheckpointSegment ? { onCheckpointSegment: options.onCheckpointSegment } : {}),
    ...(rawSpec.output ? { output: rawSpec.output } : {}),
    ...(rawSpec.onToolResult ? { onToolResult: rawSpec.onToolResult } : {}),
    ...(lineage ? { lineage } : {}),
  });
  if (!("deps" in ctx)) return failedBeforeStart(ctx, spec, messages, emit);
  return drive(ctx, () => runTurns(ctx));
}

/**
 * The runner: stateless between calls. `runTask` takes a spec and returns a result; `streamTask`
 * does the same with typed events; `resume` continues a parked run in any process that has the
 * same park key and ledger.
 */
export function createRunner(deps: RunnerDeps): Runner {
  const resolved = resolveDeps(deps);
  const stream = (start: (emit: (event: RunEvent) => void) => Promise<TaskResult>): TaskStream => {
    const channel = new EventChannel<RunEvent>();
    const result = start((event) => channel.push(event)).then(
      (value) => (channel.close(), value),
      (error: unknown) => {
        channel.fail(error);
        throw error;
      },
    );
    // The failure reaches the event iterator too, so a host that only reads events is not left
    // with an unhandled rejection (a process crash) on `result`; awaiting `result` still rejects.
    result.catch(() => undefined);
    return { result: resultAccessor(result), [Symbol.asyncIterator]: () => channel[Symbol.asyncIterator]() };
  };
  return hostableRunner(
    {
      runTask: (spec, options = {}) => typed(execute(resolved, spec, options, noListener)),
      streamTask: (spec, options = {}) => typedStream(stream((emit) => execute(resolved, spec, options, emit))),
      resolveModel: (spec) => resolveTaskModel(resolved.routing, spec),
      resume: (parked, decision, options = {}) => typed(resumeRun(resolved, parked, decision, options, noListener)),
      continueRun: (checkpoint, options = {}) => typed(continueRun(resolved, checkpoint, options, noListener)),
    },
    resolved,
  );
}

// `structured` is only ever set to what the run's `output` schema returned from parsing the final
// answer (loop.ts), so the result may carry that schema's output type.
const typed = <T>(result: Promise<TaskResult>): Promise<TaskResult<T>> => result as Promise<TaskResult<T>>;
const typedStream = <T>(stream: TaskStream): TaskStream<T> => stream as TaskStream<T>;
