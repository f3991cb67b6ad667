import { CodedError, isCodedError, type ToolCall } from "@x/llm-types";
import { freezeAncestor } from "../effects/ancestor-station";
import { remainingBudget } from "../decisions/budget";
import type { ToolContext } from "../vocabulary/define-tool";
import type { RunEvent } from "../vocabulary/events";
import { noListener, type Lineage, type RunContext, type SubRunBook } from "../state/run-context";
import { linkOf } from "../effects/sub-run-link";
import { settleInParent } from "./sub-run-stats";
import type { SubRunSpec, TaskPathEntry } from "../vocabulary/sub-run-types";
import type { Budget, TaskResult, TaskSpec } from "../vocabulary/types";

export const SUB_RUN_ERROR_CODES = [
  "no_parent",
  "invalid_spec",
  "depth_limit",
  "child_limit",
  "parked",
  "aborted",
] as const;
export type SubRunErrorCode = (typeof SUB_RUN_ERROR_CODES)[number];

/**
 * A sub-run that could not start (`no_parent`, `invalid_spec`, `depth_limit`, `child_limit`,
 * `aborted`), or one that parked (`parked`): the whole tree now waits for a person, so the calling
 * tool must stop — let this error through; whatever the tool returns after it is dropped.
 */
export class SubRunError extends CodedError<SubRunErrorCode> {
  override readonly name = "SubRunError";
}

const DEFAULT_CHILD_MAX_TURNS = 10;

function newBook(): SubRunBook {
  return { running: new Set(), started: 0, active: 0, waiting: [], records: [], parks: new Map() };
}

/** The child's place in the tree; every ancestor's classifier is frozen now, each armed afresh for this child. */
export function lineageFor(parent: RunContext, toolCall: ToolCall, toolSpan: string, parkable: boolean): Lineage {
  parent.subRuns ??= newBook();
  const inherited = (parent.lineage?.ancestors ?? []).map(({ decider: _armed, ...frame }) => frame);
  const step: TaskPathEntry = { runId: parent.runId, toolName: toolCall.name, toolCallId: toolCall.id };
  return {
    parent,
    toolCall,
    toolSpan,
    depth: (parent.lineage?.depth ?? 0) + 1,
    parkable,
    path: [...(parent.lineage?.path ?? []), step],
    ancestors: [freezeAncestor(parent), ...inherited],
  };
}

/** The child's events reach the parent's listener, wrapped with the path down to the child. */
export function childEmit(parent: RunContext, path: TaskPathEntry[]): (event: RunEvent) => void {
  if (parent.emit === noListener) return noListener;
  return (event) => parent.emit({ type: "sub_run", path, event });
}

/** The child's budget: its own ask (explicit, or a share), never more than what the parent's tree has left. */
function carveBudget(parent: RunContext, spec: SubRunSpec): Budget | undefined {
  if (spec.budget !== undefined && spec.budgetShare !== undefined)
    throw new SubRunError("invalid_spec", "give a sub-run `budget` or `budgetShare`, not both");
  const share = spec.budgetShare;
  if (share !== undefined && !(typeof share === "number" && share > 0 && share <= 1))
    throw new SubRunError("invalid_spec", `budgetShare must be a number in (0, 1], got ${String(share)}`);
  const left = remainingBudget(parent);
  const pick = (asked: number | undefined, room: number | undefined): number | undefined => {
    const shared = share !== undefined && room !== undefined ? room * share : undefined;
    const values = [asked, shared, room].filter((v): v is number => v !== undefined);
    return values.length ? Math.min(...values) : undefined;
  };
  const tokens = pick(spec.budget?.tokens, left.tokens);
  const microUsd = pick(spec.budget?.microUsd, left.microUsd);
  if (tokens === undefined && microUsd === undefined) return undefined;
  return {
    ...(tokens !== undefined ? { tokens: Math.floor(tokens) } : {}),
    ...(microUsd !== undefined ? { microUsd: Math.floor(microUsd) } : {}),
  };
}

function childTaskSpec(parent: RunContext, spec: SubRunSpec): TaskSpec {
  const { budgetShare: _share, budget: _budget, tools, model, role, ...rest } = spec;
  const budget = carveBudget(parent, spec);
  // No model named: the child runs on whatever the parent's spec named (its model, or its role).
  const runsOn =
    model !== undefined
      ? { model }
      : role !== undefined
        ? { role }
        : parent.spec.model !== undefined
          ? { model: parent.spec.model }
          : parent.spec.role !== undefined
            ? { role: parent.spec.role }
            : {};
  return {
    maxTurns: DEFAULT_CHILD_MAX_TURNS,
    ...rest,
    ...runsOn,
    tools: tools ?? [],
    ...(budget ? { budget } : {}),
    ...(parent.sessionId !== undefined ? { sessionId: parent.sessionId } : {}),
  };
}

/** Waits for one of the parent's child slots; an abort while waiting refuses the child. */
async function takeSlot(book: SubRunBook, limit: number, signal: AbortSignal): Promise<void> {
  while (book.active >= limit && !signal.aborted) {
    await new Promise<void>((resolve) => {
      book.waiting.push(resolve);
      signal.addEventListener("abort", () => resolve(), { once: true });
    });
  }
  if (signal.aborted) throw new SubRunError("aborted", "the parent run was aborted before the sub-run started");
  book.active += 1;
}

function releaseSlot(book: SubRunBook): void {
  book.active -= 1;
  book.waiting.shift()?.();
}

/**
 * Runs a child task from inside a tool's `execute`, on the same runner, and returns its result.
 * The child is held to everything its ancestors set: permissions only narrow, each gated call is
 * also judged by every ancestor's frozen classifier, its budget is carved from the parent's and its
 * spend counts against every ancestor, the parent's abort (and the tool's timeout) stops it.
 *
 * A child that parks (its call waits for a person no one can reach now) throws `SubRunError`
 * `parked`: the parent parks too, as one signed value, and `resume` continues the child, whose
 * result then becomes this tool call's result. Inside a read-only tool (which runs in parallel)
 * the child cannot park; it comes back with status `parked` instead.
 */
export async function runSubTask(
  context: ToolContext,
  spec: SubRunSpec,
  options: { signal?: AbortSignal } = {},
): Promise<TaskResult> {
  const link = linkOf(context);
  if (!link)
    throw new SubRunError("no_parent", "runSubTask needs the ToolContext the runner passed to this tool's execute");
  const { parent } = link;
  const limits = parent.deps.subRunLimits;
  const depth = (parent.lineage?.depth ?? 0) + 1;
  if (depth > limits.maxDepth)
    throw new SubRunError("depth_limit", `a sub-run at depth ${depth} is past the limit of ${limits.maxDepth}`);
  const book = (parent.subRuns ??= newBook());
  if (book.started >= limits.maxChildren)
    throw new SubRunError("child_limit", `this run already started its limit of ${limits.maxChildren} sub-runs`);
  const taskSpec = childTaskSpec(parent, spec);
  // The child's own signal (a deadline, say) stops it alone; the parent's stops it too.
  const signal = options.signal ? AbortSignal.any([context.signal, options.signal]) : context.signal;
  await takeSlot(book, limits.maxConcurrent, signal);
  book.started += 1;
  const lineage = lineageFor(parent, link.toolCall, link.toolSpan, !link.readOnly);
  let result: TaskResult;
  try {
    result = await parent.deps.runs.execute(
      parent.deps,
      taskSpec,
      { signal },
      childEmit(parent, lineage.path),
      lineage,
    );
  } catch (error) {
    if (isCodedError(error, "schema_invalid")) throw new SubRunError("invalid_spec", error.message);
    throw error;
  } finally {
    releaseSlot(book);
  }
  // A child that failed before it had a context (its model does not resolve) settles here.
  if (!book.records.some((record) => record.result === result)) settleInParent(lineage, result);
  if (result.status === "parked" && lineage.parkable)
    throw new SubRunError("parked", `the sub-run ${result.runId} waits for a person's approval`);
  return result;
}
