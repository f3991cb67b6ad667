import { vouchMessages } from "@x/brain-kit";
import type { Message, Model } from "@x/llm-types";
import { modelView, viewOf } from "../state/compaction-view";
import { lendMessages } from "../state/lent-messages";
import type { RunContext } from "../state/run-context";

// What the next model call is sent, and to which model with which output cap: read by the model
// call (effects) and by compaction (loop), so it lives above both.

/** The full message list the run works on: the host's history, then the run's own messages. */
export function allMessages(ctx: RunContext): Message[] {
  return [...ctx.history, ...ctx.messages];
}

/**
 * What the next model call will be sent, compaction applied; vouched for to the brain kit (every
 * entry was checked or built by the runner). Until a first compaction the history's part is the
 * {@link HistoryView}'s, derived once, so a turn costs one array copy however long the history is
 * — none, with `lend`, for a brain that borrows its context: the run's lent array, grown.
 */
export function contextMessages(ctx: RunContext, lend = false): Message[] {
  const options = ctx.compactionOptions;
  const state = ctx.state.compaction;
  const views = (own: readonly Message[]) => (options ? own.map((message) => viewOf(message, options)) : own);
  let messages: Message[];
  if (state && (state.cut > 0 || state.tailResultMaxChars !== undefined))
    messages = modelView(allMessages(ctx), options, state);
  else if (!lend) messages = ctx.historyView.view.concat(views(ctx.messages));
  else messages = (ctx.lent = lendMessages(ctx.lent, ctx.historyView, ctx.messages, views)).messages;
  vouchMessages(messages);
  return messages;
}

/** The run's model, then its fallbacks, in the order a failing call falls back along. */
export function modelChain(ctx: RunContext): Model[] {
  return [ctx.taskModel.model, ...ctx.taskModel.fallbacks];
}

/** The output cap of the next call: the spec's, or what a max-tokens recovery raised it to. */
export function outputCap(ctx: RunContext, model: Model): number {
  return Math.min(ctx.maxTokensNow ?? ctx.spec.maxTokens ?? model.maxTokens, model.maxTokens);
}
