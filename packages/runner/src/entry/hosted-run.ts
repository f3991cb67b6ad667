import { randomUUID } from "node:crypto";
import { parseWith, type ToolCall } from "@x/llm-types";
import type { ToolContext } from "../vocabulary/define-tool";
import { ModelResolutionError } from "../decisions/resolve";
import type { RunSpec } from "../vocabulary/park-schema";
import { noListener, type ResolvedDeps } from "../state/run-context";
import { buildContext, freshState } from "../loop/run-lifecycle";
import { TaskSpecSchema } from "../vocabulary/schemas";
import { toRunStats } from "../state/stats";
import { callElicitor } from "../effects/elicitation";
import { linkedToolContext } from "../effects/sub-run-link";
import type { SubRunRecord } from "../vocabulary/sub-run-types";
import { SPAN_NAMES } from "../effects/tracer";
import type { Budget, Permission, RunStats, TaskSpec } from "../vocabulary/types";
import type { Runner } from "../vocabulary/runner-api";
import { historyView } from "../state/history-view";

/**
 * The key a runner made by `createRunner` carries its resolved deps under, so host code can open a
 * run on it without a model (`runHosted`); not on the public Runner type.
 */
const RUNNER_DEPS = Symbol("x.runnerDeps");

/** A runner as `createRunner` makes it: the public methods, and the deps they close over. */
export type HostableRunner = Runner & { readonly [RUNNER_DEPS]?: ResolvedDeps };

export function hostableRunner(runner: Runner, deps: ResolvedDeps): HostableRunner {
  return { ...runner, [RUNNER_DEPS]: deps };
}

/** A run driven by host code instead of a model: the parent its sub-runs hang under. */
export interface HostedTaskSpec {
  /** What the host is doing, in the user's words: the intent every child's ancestor station reads. */
  objective: string;
  /** The tool name the children's path shows for the host's step. Default `host`. */
  name?: string;
  /** The model an ancestor station reads the seat from (the host makes no model call itself). */
  model?: TaskSpec["model"];
  /** Or the role whose model that is. */
  role?: TaskSpec["role"];
  /** The budget of the whole tree: every child's spend counts against it as it is spent. */
  budget?: Budget;
  /** The floor for every child's permissions. */
  permissions?: Readonly<Record<string, Permission>>;
  /** The permission floor for a child's tools the map does not name. */
  defaultPermission?: Permission;
  /** The host's session, carried by the run and its children. */
  sessionId?: string;
  /** This run's id. Default: a random UUID. */
  runId?: string;
}

export interface HostedResult<T> {
  /** What `body` returned. */
  value: T;
  /** The hosted run's id. */
  runId: string;
  /** Every child's spend, rolled up as for any parent. */
  stats: RunStats;
  /** Every child started from `body`, with its full result. */
  subRuns: SubRunRecord[];
}

/**
 * Runs host code as a parent run: `body` gets a ToolContext for `runSubTask`, so children started
 * from host code get every sub-run rule — the budget here is the tree's, the permissions here are
 * their floor, the objective here is what their ancestor station judges against, the signal aborts
 * them, and their spans sit under this run's. Children of a hosted run cannot park (no model turn
 * above them to resume into); one that would comes back with status `parked`.
 */
export async function runHosted<T>(
  runner: Runner,
  spec: HostedTaskSpec,
  body: (context: ToolContext) => Promise<T>,
  options: { signal?: AbortSignal } = {},
): Promise<HostedResult<T>> {
  const deps = (runner as HostableRunner)[RUNNER_DEPS];
  if (!deps) throw new TypeError("runHosted needs a runner made by createRunner");
  const { name = "host", model, ...fields } = spec;
  parseWith(TaskSpecSchema, { ...fields, ...(model !== undefined ? { model } : {}) }, "hosted task spec");
  const runId = spec.runId ?? randomUUID();
  const signal = options.signal ?? new AbortController().signal;
  const ctx = buildContext(deps, {
    spec: {
      ...fields,
      runId,
      toolNames: [],
      hasOutput: false,
      ...(model !== undefined
        ? { model: (Array.isArray(model) ? [...(model as unknown[])] : model) as RunSpec["model"] }
        : {}),
    },
    tools: [],
    onHand: [],
    history: historyView([], deps.compaction),
    messages: [{ role: "user", content: spec.objective, timestamp: deps.clock.now() }],
    state: freshState(),
    signal,
    emit: noListener,
  });
  if (!("deps" in ctx)) throw new ModelResolutionError(ctx.message);
  ctx.runSpan = ctx.tracer.start(SPAN_NAMES.run, {
    model: ctx.taskModel.model.id,
    objective: spec.objective.slice(0, 200),
  });
  const call: ToolCall = { type: "toolCall", id: `${name}_1`, name, arguments: {} };
  const toolSpan = ctx.tracer.start(SPAN_NAMES.toolCall, { toolName: name, toolCallId: call.id }, ctx.runSpan);
  const context = linkedToolContext(
    {
      signal,
      runId,
      toolCallId: call.id,
      toolName: name,
      idempotencyKey: `${runId}:${call.id}`,
      progress: () => undefined,
      // A hosted body is not a call a park could re-run: a question nobody answers now is declined.
      elicit: callElicitor(ctx, call, { signal, canPark: false, park: () => undefined }),
      ...(spec.sessionId !== undefined ? { sessionId: spec.sessionId } : {}),
    },
    { parent: ctx, toolCall: call, toolSpan, readOnly: true },
  );
  let failed = true;
  try {
    const value = await body(context);
    failed = false;
    return { value, runId, stats: toRunStats(ctx.state.stats), subRuns: ctx.subRuns?.records ?? [] };
  } finally {
    ctx.tracer.end(
      toolSpan,
      SPAN_NAMES.toolCall,
      { toolName: name, toolCallId: call.id, isError: failed },
      ctx.runSpan,
    );
    const usage = ctx.state.stats.usage;
    ctx.tracer.end(ctx.runSpan, SPAN_NAMES.run, {
      status: failed ? "failed" : signal.aborted ? "aborted" : "completed",
      code: failed ? "internal_error" : signal.aborted ? "aborted" : "completed",
      model: ctx.taskModel.model.id,
      inputTokens: usage.input + usage.cacheRead + usage.cacheWrite,
      outputTokens: usage.output,
      costMicroUsd: usage.cost.total,
    });
  }
}
