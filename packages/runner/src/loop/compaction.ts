import { contextSize, estimateContextTokens, tokensOfSize } from "@x/brain-kit";
import {
  addUsage,
  attributedUserText,
  resolveRole,
  type AssistantMessage,
  type Message,
  type Model,
  type ToolResultMessage,
} from "@x/llm-types";
import type { CompactionReport } from "../vocabulary/compaction-report";
import type { CompactionRequest, CompactionSummary, ResolvedCompaction } from "../vocabulary/compaction-options";
import { emptyCompactionState } from "../vocabulary/compaction-state";
import { CompactorFailed, defaultCompactor } from "../effects/compactor";
import { modelView, viewOf } from "../state/compaction-view";
import { addSizes, isReport, reportedInput, type HistoryView } from "../state/history-view";
import type { RunContext } from "../state/run-context";
import { allMessages, contextMessages, modelChain, outputCap } from "../decisions/model-context";
import type { Terminal } from "../vocabulary/types";
import { tailResultCap } from "../decisions/tail-result-cap";
import { CHARS_PER_TOKEN } from "../decisions/fitted-compaction";

/**
 * How many tokens the next request holds: the last call's reported input plus an estimate of what
 * was appended since — or, with no usable report (first call, a compaction since, a provider that
 * reports nothing), an estimate of the whole request.
 */
export function contextTokens(ctx: RunContext): number {
  const options = ctx.compactionOptions;
  // A view carried in from the session's last run (`compactedHistory`) counts as a compaction done.
  const state = ctx.state.compaction;
  if (state && (state.cut > 0 || state.tailResultMaxChars !== undefined)) return contextTokensAfterCompaction(ctx);
  const own = (from: number) => {
    const tail = ctx.messages.slice(from);
    return contextSize({ messages: options ? tail.map((message) => viewOf(message, options)) : tail });
  };
  for (let i = ctx.messages.length - 1; i >= 0; i--) {
    const message = ctx.messages[i]!;
    if (isReport(message)) return reportedInput(message) + tokensOfSize(own(i));
  }
  const history = ctx.historyView;
  const report = history.entries[history.lastReport];
  if (report && isReport(report) && reportCovers(history, report))
    return reportedInput(report) + tokensOfSize(addSizes(history.sinceReport, own(0)));
  const rest = contextSize({
    messages: [],
    ...(ctx.systemPrompt !== undefined ? { systemPrompt: ctx.systemPrompt } : {}),
    tools: ctx.toolSpecs,
  });
  return tokensOfSize(addSizes(addSizes(history.size, own(0)), rest));
}

/**
 * Whether the history's last report measured what this run will send of the entries before it. A
 * report is the request its own run sent: a run that compacted sent a summary and its latest turns,
 * while the host appends `result.messages` whole — so a session continued across runs would size
 * its first request by a report a fraction of the history it now sends (115k tokens sent into an
 * 8k window, sized as 6k). A report under 80 % of the entries' own estimate is taken to be of
 * another view, and the history is estimated instead: the estimate may err by a fifth either way,
 * and an early compaction costs one summary where an overflow costs a refused call.
 */
function reportCovers(history: HistoryView, report: AssistantMessage): boolean {
  const before = {
    chars: history.size.chars - history.sinceReport.chars,
    images: history.size.images - history.sinceReport.images,
  };
  return reportedInput(report) >= 0.8 * tokensOfSize(before);
}

/** {@link contextTokens} once the run has compacted: the report is looked for after the last compaction only. */
function contextTokensAfterCompaction(ctx: RunContext): number {
  const all = allMessages(ctx);
  const since = ctx.state.compaction?.at.at(-1) ?? 0;
  for (let i = all.length - 1; i >= since; i--) {
    const message = all[i]!;
    if (!isReport(message)) continue;
    const tailMax = ctx.state.compaction?.tailResultMaxChars;
    const appended = modelView(all.slice(i), ctx.compactionOptions, {
      ...emptyCompactionState(),
      ...(tailMax !== undefined ? { tailResultMaxChars: tailMax } : {}),
    });
    return reportedInput(message) + estimateContextTokens({ messages: appended });
  }
  return estimateContextTokens({
    messages: contextMessages(ctx),
    ...(ctx.systemPrompt !== undefined ? { systemPrompt: ctx.systemPrompt } : {}),
    tools: ctx.toolSpecs,
  });
}

/** The model the next call goes to: a fallback sticks for the rest of the run. */
function currentModel(ctx: RunContext): Model {
  return modelChain(ctx)[ctx.chainIndex] ?? ctx.taskModel.model;
}

/** Tokens the model may be sent: its window minus room for its answer. */
function usableWindow(ctx: RunContext, model: Model): number {
  return Math.max(1, model.contextWindow - outputCap(ctx, model));
}

/**
 * Where the kept tail starts: the earliest assistant turn after the current cut whose turns from
 * there on fit in `budget` tokens — at least the latest turn. Cutting only before an assistant turn
 * keeps every tool call with its result. Undefined when there is nothing to fold.
 */
function chooseCut(
  all: readonly Message[],
  from: number,
  budget: number,
  options: ResolvedCompaction,
): number | undefined {
  let latest: number | undefined;
  let chosen: number | undefined;
  let tokens = 0;
  for (let i = all.length - 1; i > from; i--) {
    tokens += estimateContextTokens({ messages: modelView([all[i]!], options, undefined) });
    if (all[i]!.role !== "assistant") continue;
    latest ??= i;
    if (tokens > budget) break;
    chosen = i;
  }
  return chosen ?? latest;
}

/**
 * The user's own words of the run's objective: recalled strategies, teacher guidance and engine
 * text ahead of them are not the user's request, so a summariser is never handed them as such.
 */
function objectiveOf(ctx: RunContext): string {
  const first = ctx.messages[0];
  if (!first || first.role !== "user") return "";
  return attributedUserText(first)
    .filter((piece) => piece.source === "user")
    .map((piece) => piece.text)
    .join("");
}

/**
 * Folds the turns before a new cut into the summary, then makes sure the turns kept fit: a turn too
 * large for the window by itself (many large results at once) has its results cut, not the run.
 */
async function compact(ctx: RunContext, reason: "threshold" | "overflow"): Promise<boolean> {
  const folded = await fold(ctx, reason);
  return fitTail(ctx, reason) || folded;
}

/**
 * Folds the turns before a new cut into the summary. A compactor that fails (throws, or writes
 * nothing) leaves the view as it was: the run goes on, and a real overflow later ends it typed.
 */
async function fold(ctx: RunContext, reason: "threshold" | "overflow"): Promise<boolean> {
  const options = ctx.compactionOptions!;
  const model = currentModel(ctx);
  const state = ctx.state.compaction ?? emptyCompactionState();
  const all = allMessages(ctx);
  const cut = chooseCut(all, state.cut, usableWindow(ctx, model) * options.keepRecent, options);
  if (cut === undefined || cut <= state.cut) return false;
  const request: CompactionRequest = {
    objective: objectiveOf(ctx),
    messages: all.slice(state.cut, cut),
    signal: ctx.signal,
    ...(state.summary ? { previousSummary: state.summary } : {}),
  };
  let written: CompactionSummary;
  try {
    written = options.compactor
      ? await options.compactor(request)
      : await defaultCompactor(ctx, request, summaryModel(ctx));
  } catch (error) {
    written = { summary: "", ...(error instanceof CompactorFailed ? { usage: error.usage } : {}) };
  }
  if (written.usage) {
    ctx.state.stats.usage = addUsage(ctx.state.stats.usage, written.usage);
    state.tokens += written.usage.totalTokens;
    state.costMicroUsd += written.usage.cost.total;
  }
  if (typeof written.summary !== "string" || written.summary.trim() === "") {
    ctx.notice({
      code: "run.compaction_failed",
      audience: "operator",
      message: `Compaction (${reason}) wrote no summary; the run goes on uncompacted.`,
      detail: { reason },
    });
    ctx.state.compaction = state;
    return false;
  }
  state.summary = written.summary.trim();
  state.cut = cut;
  state.at.push(all.length);
  ctx.state.compaction = state;
  ctx.emit({ type: "compaction", reason, folded: request.messages.length, kept: all.length - cut });
  return true;
}

/** Share of the usable window the kept turns may fill: the estimate errs, and more after a refusal. */
const TAIL_ROOM = { threshold: 0.9, overflow: 0.75 } as const;

/**
 * When the turns kept after the cut do not fit the window by themselves, cuts every tool result
 * among them to one level (the large ones only) so they do; recomputed at each compaction, so a
 * cap no longer needed is lifted. True when the view changed. A turn that cannot fit even so is
 * left as it is: the provider's refusal then ends the run `context_overflow`, typed.
 */
function fitTail(ctx: RunContext, reason: "threshold" | "overflow"): boolean {
  const options = ctx.compactionOptions!;
  const state = ctx.state.compaction ?? emptyCompactionState();
  const { tailResultMaxChars: before, ...uncapped } = state;
  const all = allMessages(ctx);
  const fixed = estimateContextTokens({
    messages: [],
    ...(ctx.systemPrompt !== undefined ? { systemPrompt: ctx.systemPrompt } : {}),
    tools: ctx.toolSpecs,
  });
  const room = usableWindow(ctx, currentModel(ctx)) * TAIL_ROOM[reason] - fixed;
  const tokens = estimateContextTokens({ messages: modelView(all, options, uncapped) });
  const results = all.slice(state.cut).flatMap((message) => {
    const view = viewOf(message, options);
    return view.role === "toolResult" ? [textChars(view)] : [];
  });
  const excess = Math.ceil((tokens - room) * CHARS_PER_TOKEN);
  const cap = excess > 0 ? tailResultCap(results, results.reduce((sum, n) => sum + n, 0) - excess) : undefined;
  if (cap === before) return false;
  ctx.state.compaction = cap === undefined ? uncapped : { ...uncapped, tailResultMaxChars: cap };
  ctx.state.compaction.at.push(all.length);
  if (cap !== undefined) {
    ctx.notice({
      code: "run.turn_cut",
      audience: "operator",
      message:
        `The latest turns alone did not fit the model's window: every tool result the model sees ` +
        `from them is cut to ${cap} characters (the run's messages keep them whole).`,
      detail: { reason, tailResultMaxChars: cap, results: results.length },
    });
  }
  return true;
}

/** Characters of a tool result's text blocks, as the token estimate counts them. */
function textChars(message: ToolResultMessage): number {
  return message.content.reduce((sum, block) => sum + (block.type === "text" ? block.text.length : 0), 0);
}

/** The `summarize` role's model (cheap by default), relative to the run's main model. */
export function summaryModel(ctx: RunContext): Model {
  return resolveRole(ctx.deps.routing, "summarize", ctx.taskModel.model).model;
}

/** Before each model call: compacts when the next request would pass the threshold. */
export async function compactIfDue(ctx: RunContext): Promise<void> {
  const options = ctx.compactionOptions;
  if (!options) return;
  const model = currentModel(ctx);
  if (contextTokens(ctx) <= usableWindow(ctx, model) * options.threshold) return;
  await compact(ctx, "threshold");
}

/**
 * A provider refused the request as too long although the estimate said it fit: compact once
 * and let the loop ask again. A second overflow in the same turn ends the run with the typed cause.
 */
export async function recoverOverflow(ctx: RunContext, terminal: Terminal): Promise<boolean> {
  if (!ctx.compactionOptions || terminal.errorKind !== "context_overflow") return false;
  const turns = ctx.state.stats.turns;
  if (ctx.state.compaction?.overflowTurn === turns) return false;
  const done = await compact(ctx, "overflow");
  ctx.state.compaction = { ...(ctx.state.compaction ?? emptyCompactionState()), overflowTurn: turns };
  return done;
}

/**
 * Reads the report off the run's messages: each answered call's request is the previous one plus
 * what was appended, unless a compaction happened between them.
 */
export function compactionReport(ctx: RunContext): CompactionReport {
  const state = ctx.state.compaction ?? emptyCompactionState();
  const offset = ctx.history.length;
  let inputTokens = 0;
  let stable = 0;
  let previous: { index: number; input: number } | undefined;
  for (const [i, message] of ctx.messages.entries()) {
    if (message.role !== "assistant" || message.stopReason === "error") continue;
    const index = offset + i;
    const input = reportedInput(message);
    inputTokens += input;
    if (previous && !state.at.some((at) => at > previous!.index && at <= index))
      stable += Math.min(previous.input, input);
    previous = { index, input };
  }
  return {
    compactions: state.at.length,
    ...(state.cut > 0 ? { view: { cut: state.cut, summary: state.summary } } : {}),
    tokens: state.tokens,
    costMicroUsd: state.costMicroUsd,
    inputTokens,
    cacheStableInputTokens: stable,
    cacheStableShare: inputTokens === 0 ? 0 : stable / inputTokens,
  };
}
