import { randomUUID } from "node:crypto";
import { assistantText, parseWith, safeObserve, type Brain, type Message } from "@x/llm-types";
import { ClassifierConfigError } from "@x/classifier-ladder";
import { z } from "zod";
import { createAutoModeGate } from "./auto-mode";
import { closeRemaining, closeUnanswered, flush, handleCalls, runCall } from "./calls";
import { systemClock } from "./clock";
import { EventChannel, type RunEvent } from "./events";
import { runTurns, type LoopEnd } from "./loop";
import { createLoopGuard } from "./loop-guard";
import { outputInstruction } from "./output";
import { RunnerConfigError } from "./config-error";
import { checkParkKey, ParkedRunError, pendingTurn, randomParkKey, signParkedRun, verifyParkedRun } from "./park";
import { createMemoryParkLedger } from "./park-ledger";
import type { ParkedRun, ParkedSpec, RunState } from "./park-schema";
import { afterPersonDecided, deniedResult } from "./permissions";
import { ModelResolutionError, resolveTaskModel } from "./resolve";
import { resolveRetry } from "./retry";
import type { ResolvedDeps, RunContext } from "./run-context";
import { TaskSpecSchema } from "./schemas";
import { addGate, emptyStats, toRunStats } from "./stats";
import { findTool } from "./tools";
import { RunTracer, SPAN_NAMES } from "./tracer";
import type { Tool } from "./define-tool";
import type { ResumeDecision, ResumeOptions, Runner, RunnerDeps, TaskResult, TaskSpec, TaskStream, Terminal } from "./types";

const DAY_MS = 24 * 60 * 60 * 1000;

const ResumeDecisionSchema = z.strictObject({ decision: z.enum(["approve", "deny"]), reason: z.string().optional() });

function parkTtl(ttlMs: unknown): number {
  if (ttlMs === undefined) return DAY_MS;
  if (typeof ttlMs !== "number" || !Number.isSafeInteger(ttlMs) || ttlMs <= 0) {
    throw new RunnerConfigError("config.park_ttl_invalid", `parkTtlMs must be a positive whole number of milliseconds, got ${typeof ttlMs === "number" ? ttlMs : typeof ttlMs}`);
  }
  return ttlMs;
}

function resolveDeps(deps: RunnerDeps): ResolvedDeps {
  const brains = new Map<string, Brain>();
  const list: ReadonlyArray<readonly [string, Brain]> = Array.isArray(deps.brains)
    ? (deps.brains as readonly Brain[]).map((brain) => [brain.api, brain] as const)
    : Object.entries(deps.brains as Readonly<Record<string, Brain>>);
  for (const [api, brain] of list) brains.set(api, brain);
  return {
    brains,
    routing: { models: deps.models, ...(deps.roles ? { roles: deps.roles } : {}), ...(deps.tiers ? { tiers: deps.tiers } : {}) },
    clock: deps.clock ?? systemClock,
    retry: resolveRetry(deps.retry),
    ...(deps.approver ? { approver: deps.approver } : {}),
    autoMode: deps.autoMode ?? {},
    parkKey: deps.parkKey === undefined ? randomParkKey() : checkParkKey(deps.parkKey),
    parkKeyEphemeral: deps.parkKey === undefined,
    parkTtlMs: parkTtl(deps.parkTtlMs),
    parkLedger: deps.parkLedger ?? createMemoryParkLedger(),
    parkLedgerEphemeral: deps.parkLedger === undefined,
    ...(deps.onNotice ? { onNotice: deps.onNotice } : {}),
    ...(deps.tracer ? { tracer: deps.tracer } : {}),
    tools: deps.tools ?? [],
  };
}

function freshState(): RunState {
  return {
    stats: emptyStats(),
    loopGuard: { streak: 0 },
    denials: { consecutiveBlocks: 0, totalBlocks: 0, consecutiveUnavailable: 0 },
    recovered: { maxTokens: false, emptyAnswer: false, degenerate: false, output: false },
    seatAnnounced: false,
  };
}

/** The JSON-safe part of a spec, as a park stores it. */
function parkedSpecOf(spec: TaskSpec, runId: string): ParkedSpec {
  const { tools, history: _history, output, onToolResult: _observer, model, ...rest } = spec;
  const out: ParkedSpec = { ...rest, runId, toolNames: (tools ?? []).map((tool) => tool.name), hasOutput: output !== undefined };
  if (model !== undefined) out.model = (Array.isArray(model) ? [...(model as unknown[])] : model) as ParkedSpec["model"];
  return out;
}

interface ContextInput {
  spec: ParkedSpec;
  tools: readonly Tool[];
  output?: TaskSpec["output"];
  onToolResult?: TaskSpec["onToolResult"];
  history: Message[];
  messages: Message[];
  state: RunState;
  signal: AbortSignal;
  emit: (event: RunEvent) => void;
}

function buildContext(deps: ResolvedDeps, input: ContextInput): RunContext | Terminal {
  let taskModel;
  try {
    taskModel = resolveTaskModel(deps.routing, input.spec);
  } catch (error) {
    if (error instanceof ModelResolutionError) return { code: "no_model", cause: "config", message: error.message };
    throw error;
  }
  const { spec } = input;
  const runId = spec.runId;
  const tracer = new RunTracer(deps.tracer, () => deps.clock.now(), runId, spec.sessionId);
  const systemPrompt = input.output ? [spec.systemPrompt, outputInstruction(input.output)].filter(Boolean).join("\n\n") : spec.systemPrompt;
  const ctx: RunContext = {
    deps,
    spec,
    runId,
    signal: input.signal,
    tools: input.tools,
    toolSpecs: input.tools.map((tool) => tool.spec),
    taskModel,
    chainIndex: 0,
    history: input.history,
    messages: input.messages,
    state: input.state,
    guard: createLoopGuard(spec.maxRepeatedCalls ?? 3, input.state.loopGuard),
    tracer,
    runSpan: "",
    emit: input.emit,
    notice: (notice) => {
      const full = { ...notice, runId, ...(spec.sessionId !== undefined ? { sessionId: spec.sessionId } : {}) };
      safeObserve(deps.onNotice, full);
      input.emit({ type: "notice", notice: full });
    },
    ...(spec.sessionId !== undefined ? { sessionId: spec.sessionId } : {}),
    ...(systemPrompt !== undefined ? { systemPrompt } : {}),
    ...(input.output ? { output: input.output } : {}),
    ...(input.onToolResult ? { onToolResult: input.onToolResult } : {}),
  };
  ctx.autoMode = createAutoModeGate(ctx);
  return ctx;
}

function lastAssistantText(messages: readonly Message[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role === "assistant") return assistantText(message);
  }
  return "";
}

function finish(ctx: RunContext, end: LoopEnd): TaskResult {
  const result: TaskResult = {
    status: end.status,
    terminal: end.terminal,
    output: lastAssistantText(ctx.messages),
    messages: ctx.messages,
    stats: toRunStats(ctx.state.stats),
    runId: ctx.runId,
    ...(ctx.sessionId !== undefined ? { sessionId: ctx.sessionId } : {}),
    ...(end.model ? { model: end.model } : {}),
    ...(end.structured !== undefined ? { structured: end.structured } : {}),
  };
  if (end.park) {
    if (ctx.deps.parkKeyEphemeral) {
      ctx.notice({ code: "config.park_key_ephemeral", audience: "operator", message: "This run parked, signed with a random key: only this runner can resume it. Set `parkKey` to resume in another process.", detail: {} });
    } else if (ctx.deps.parkLedgerEphemeral) {
      // A shared key lets other processes resume the park, but an in-memory ledger only stops a
      // replay inside this runner: at-most-once across processes needs a shared ledger.
      ctx.notice({ code: "config.park_ledger_ephemeral", audience: "operator", message: "This run parked with a shared `parkKey` but the default in-memory ledger: another process (or a restart) could resume the same park again. Set `parkLedger` (e.g. createFileParkLedger) so the call runs at most once everywhere.", detail: {} });
    }
    const parked = signParkedRun(
      { parkId: randomUUID(), now: ctx.deps.clock.now(), ttlMs: ctx.deps.parkTtlMs, spec: ctx.spec, history: ctx.history, messages: ctx.messages, pending: end.park, state: structuredClone(ctx.state) },
      ctx.deps.parkKey,
    );
    result.parked = parked;
    ctx.emit({ type: "parked", parked });
  }
  ctx.tracer.end(ctx.runSpan, SPAN_NAMES.run, {
    status: result.status,
    code: result.terminal.code,
    model: result.model?.id ?? ctx.taskModel.model.id,
    provider: ctx.taskModel.model.provider,
    inputTokens: ctx.state.stats.usage.input + ctx.state.stats.usage.cacheRead + ctx.state.stats.usage.cacheWrite,
    outputTokens: ctx.state.stats.usage.output,
    costMicroUsd: ctx.state.stats.usage.cost.total,
    turns: result.stats.turns,
    toolCalls: result.stats.toolCalls,
  });
  ctx.emit({ type: "run_end", result });
  return result;
}

function failedBeforeStart(terminal: Terminal, spec: ParkedSpec, messages: Message[], emit: (e: RunEvent) => void): TaskResult {
  const result: TaskResult = { status: "failed", terminal, output: "", messages, stats: toRunStats(emptyStats()), runId: spec.runId, ...(spec.sessionId !== undefined ? { sessionId: spec.sessionId } : {}) };
  emit({ type: "run_end", result });
  return result;
}

/** Runs the loop, turning a classifier misconfiguration or an unexpected throw into a typed end. */
async function drive(ctx: RunContext, body: () => Promise<LoopEnd>): Promise<TaskResult> {
  ctx.runSpan = ctx.tracer.start(SPAN_NAMES.run, { model: ctx.taskModel.model.id, provider: ctx.taskModel.model.provider, objective: ctx.spec.objective.slice(0, 200) });
  ctx.emit({ type: "run_start", runId: ctx.runId, model: ctx.taskModel.model.id, ...(ctx.sessionId !== undefined ? { sessionId: ctx.sessionId } : {}) });
  let end: LoopEnd;
  try {
    end = await body();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    end =
      error instanceof ClassifierConfigError
        ? { status: "failed", terminal: { code: "config_invalid", cause: "config", message } }
        : { status: "failed", terminal: { code: "internal_error", cause: "host", message } };
    closeUnanswered(ctx, `the run failed (${end.terminal.code})`);
  }
  return finish(ctx, end);
}

async function execute(deps: ResolvedDeps, rawSpec: TaskSpec, signal: AbortSignal | undefined, emit: (event: RunEvent) => void): Promise<TaskResult> {
  parseWith(TaskSpecSchema, rawSpec, "task spec");
  const runId = rawSpec.runId ?? randomUUID();
  const spec = parkedSpecOf(rawSpec, runId);
  const messages: Message[] = [{ role: "user", content: rawSpec.objective, timestamp: deps.clock.now() }];
  const ctx = buildContext(deps, {
    spec,
    tools: rawSpec.tools ?? [],
    history: [...(rawSpec.history ?? [])],
    messages,
    state: freshState(),
    signal: signal ?? new AbortController().signal,
    emit,
    ...(rawSpec.output ? { output: rawSpec.output } : {}),
    ...(rawSpec.onToolResult ? { onToolResult: rawSpec.onToolResult } : {}),
  });
  if (!("deps" in ctx)) return failedBeforeStart(ctx, spec, messages, emit);
  return drive(ctx, () => runTurns(ctx));
}

async function resumeRun(deps: ResolvedDeps, raw: unknown, decision: ResumeDecision, options: ResumeOptions, emit: (event: RunEvent) => void): Promise<TaskResult> {
  parseWith(ResumeDecisionSchema, decision, "resume decision");
  const now = deps.clock.now();
  const park: ParkedRun = verifyParkedRun(raw, deps.parkKey, now);
  const tools = options.tools ?? deps.tools;
  if (!findTool(tools, park.pending.toolName)) {
    throw new ParkedRunError("unknown_tool", `the parked call's tool "${park.pending.toolName}" is not among the tools given to resume`, { parkId: park.parkId, toolName: park.pending.toolName });
  }
  // Aborted before anything happened: the park is not claimed, so the approval is not lost and the
  // same park can be resumed once the host is running again.
  if (options.signal?.aborted) {
    const result: TaskResult = {
      status: "aborted",
      terminal: { code: "aborted", cause: "host", message: "the resume was aborted before the park was claimed; it can be resumed again" },
      output: "",
      messages: park.messages,
      stats: toRunStats(park.state.stats),
      runId: park.spec.runId,
      parked: park,
      ...(park.spec.sessionId !== undefined ? { sessionId: park.spec.sessionId } : {}),
    };
    emit({ type: "run_end", result });
    return result;
  }
  if (!(await deps.parkLedger.claim(park.parkId))) {
    throw new ParkedRunError("replayed", `parked run ${park.parkId} was already resumed`, { parkId: park.parkId });
  }
  const ctx = buildContext(deps, {
    spec: park.spec,
    tools,
    history: park.history,
    messages: park.messages,
    state: park.state,
    signal: options.signal ?? new AbortController().signal,
    emit,
    ...(options.output ? { output: options.output } : {}),
    ...(options.onToolResult ? { onToolResult: options.onToolResult } : {}),
  });
  if (!("deps" in ctx)) return failedBeforeStart(ctx, park.spec, park.messages, emit);
  if (park.spec.hasOutput && !options.output) {
    ctx.notice({ code: "config.resume_output_missing", audience: "operator", message: "The parked run had an output schema, but resume was given none: the final answer will not be parsed, and the system prompt differs from the parked run's.", detail: { parkId: park.parkId } });
  }
  return drive(ctx, async () => {
    const turn = pendingTurn(park.messages);
    if (!turn) throw new Error("parked run does not end with an assistant turn and its results");
    const call = turn.content.filter((block) => block.type === "toolCall")[park.pending.index]!;
    const waitMs = Math.max(0, now - park.createdAt);
    addGate(ctx.state.stats, { kind: park.pending.kind, waitMs, decision: decision.decision });
    ctx.emit({ type: "approval", toolCall: call, kind: park.pending.kind, decision: decision.decision, waitMs });
    afterPersonDecided(ctx, park.pending.kind);
    const result = decision.decision === "approve" ? runCall(ctx, call) : Promise.resolve(deniedResult(call, decision.reason, deps.clock.now()));
    const stop = await flush(ctx, [{ call, result }]);
    if (stop) {
      closeRemaining(ctx, turn.content.filter((block) => block.type === "toolCall"), park.pending.index + 1, "the run was stopped by its observer");
      return { status: "stuck", terminal: stop };
    }
    const rest = await handleCalls(ctx, turn, park.pending.index + 1);
    if ("park" in rest) return { status: "parked", terminal: { code: "awaiting_approval", cause: "approval", message: `"${rest.park.toolName}" waits for a person's approval` }, park: rest.park };
    if ("terminal" in rest) return { status: rest.status, terminal: rest.terminal };
    return runTurns(ctx);
  });
}

const noop = () => undefined;

/**
 * The runner: stateless between calls. `runTask` takes a spec and returns a result; `streamTask`
 * does the same with typed events; `resume` continues a parked run in any process that has the
 * same park key and ledger.
 */
export function createRunner(deps: RunnerDeps): Runner {
  const resolved = resolveDeps(deps);
  const stream = (start: (emit: (event: RunEvent) => void) => Promise<TaskResult>): TaskStream => {
    const channel = new EventChannel<RunEvent>();
    const result = start((event) => channel.push(event)).finally(() => channel.close());
    return { result, [Symbol.asyncIterator]: () => channel[Symbol.asyncIterator]() };
  };
  return {
    runTask: (spec, options) => execute(resolved, spec, options?.signal, noop),
    streamTask: (spec, options) => stream((emit) => execute(resolved, spec, options?.signal, emit)),
    resolveModel: (spec) => resolveTaskModel(resolved.routing, spec),
    resume: (parked, decision, options = {}) => resumeRun(resolved, parked, decision, options, noop),
  };
}
