import { assistantText, assistantToolCalls, type AssistantMessage, type Model, type UserMessage } from "@x/llm-types";
import { isDegenerateCutMessage, isLengthEmpty } from "@x/terminal-cause";
import { runBudgetExceeded } from "../decisions/budget";
import { handleCalls, type CallsOutcome } from "./calls";
import { pendingTurn } from "../effects/park";
import { checkpointIfDue, checkpointWaitingResults } from "../effects/checkpoint-seal";
import { compactIfDue, recoverOverflow } from "./compaction";
import { parseOutput } from "../decisions/output";
import type { PendingCall } from "../vocabulary/park-schema";
import type { RunContext } from "../state/run-context";
import { pendingToolName } from "./sub-run-park";
import { SPAN_NAMES } from "../effects/tracer";
import { modelTurn } from "../effects/turn";
import { modelChain, outputCap } from "../decisions/model-context";
import type { TaskStatus, Terminal } from "../vocabulary/types";

/** How the loop ended. */
export interface LoopEnd {
  status: TaskStatus;
  terminal: Terminal;
  structured?: unknown;
  park?: PendingCall;
  model?: Model;
}

const NUDGE = {
  empty: "Your last reply was empty. Give your final answer now, as text.",
  degenerate:
    "Your last reply was cut off because it kept repeating the same text. Do " +
    "not repeat yourself: continue from where you are and finish concisely.",
  output: (problem: string) =>
    `Your final answer did not match the required JSON format (${problem}). Reply again with only the JSON value.`,
};

/**
 * A nudge in the user role, marked as the engine's: it may quote text the agent chose (an output
 * schema issue names the agent's own keys), so it must never read as the user's words.
 */
function engineNote(ctx: RunContext, content: string): UserMessage {
  return { role: "user", content, timestamp: ctx.deps.clock.now(), provenance: "engine" };
}

/**
 * Cut at the output cap: a `length` stop or an empty reply at the cap — the provider said so. A
 * truncated tool call in a dropped stream is not one (more room would not help); the turn never
 * gets here, it is retried as a failed call.
 */
function isCut(message: AssistantMessage): boolean {
  return message.stopReason === "length" || isLengthEmpty(message);
}

function failed(code: Terminal["code"], message: string, extra: Partial<Terminal> = {}): LoopEnd {
  return { status: "failed", terminal: { code, cause: "model", message, ...extra } };
}

/**
 * Turns until the model answers without tool calls, or a guard ends the run. Each recovery lane
 * (max tokens, empty answer, degenerate repetition, invalid structured output) fires once per run;
 * the second time ends the run with its typed terminal. Messages are only ever appended.
 */
export async function runTurns(ctx: RunContext): Promise<LoopEnd> {
  const maxTurns = ctx.spec.maxTurns ?? 20;
  let model: Model | undefined;
  for (;;) {
    if (ctx.signal.aborted)
      return { status: "aborted", terminal: { code: "aborted", cause: "host", message: "the run was aborted" } };
    if (ctx.state.stats.turns >= maxTurns)
      return {
        status: "max_turns",
        terminal: { code: "max_turns", cause: "guard", message: `the run reached its limit of ${maxTurns} turns` },
      };
    await checkpointIfDue(ctx);
    const over = runBudgetExceeded(ctx);
    if (over) return { status: "budget_exhausted", terminal: over };
    await compactIfDue(ctx);
    const turnNumber = ctx.state.stats.turns + 1;
    ctx.turnSpan = ctx.tracer.start(SPAN_NAMES.turn, { turn: turnNumber }, ctx.runSpan);
    ctx.emit({ type: "turn_start", turn: turnNumber, model: modelChain(ctx)[ctx.chainIndex]!.id });
    const outcome = await modelTurn(ctx);
    // Before its classifications are dropped: a cancelled one is no verdict to keep.
    if ("terminal" in outcome && outcome.terminal.code === "aborted") await checkpointWaitingResults(ctx);
    // A turn set aside (a nudge, a recovery) leaves nothing classifying for calls that will not run.
    if ("terminal" in outcome || outcome.message.stopReason !== "toolUse") await ctx.autoMode?.dropPrejudged();
    if ("terminal" in outcome) {
      ctx.tracer.end(ctx.turnSpan, SPAN_NAMES.turn, { turn: turnNumber, terminal: outcome.terminal.code }, ctx.runSpan);
      // Too long for the provider although the estimate said it fit: compact once and ask again.
      if (await recoverOverflow(ctx, outcome.terminal)) continue;
      const status: TaskStatus =
        outcome.terminal.code === "aborted"
          ? "aborted"
          : outcome.terminal.cause === "budget"
            ? "budget_exhausted"
            : "failed";
      return { status, terminal: outcome.terminal, ...(model ? { model } : {}) };
    }
    const message = outcome.message;
    model = outcome.model;
    let end: LoopEnd | undefined;
    try {
      end = await settleTurn(ctx, message, model, turnNumber);
    } catch (error) {
      // The run's own handler types the failure; the turn's span still closes, paired.
      ctx.tracer.end(
        ctx.turnSpan,
        SPAN_NAMES.turn,
        { turn: turnNumber, stopReason: message.stopReason, terminal: "thrown" },
        ctx.runSpan,
      );
      throw error;
    }
    ctx.tracer.end(
      ctx.turnSpan,
      SPAN_NAMES.turn,
      { turn: turnNumber, stopReason: message.stopReason, ...(end ? { terminal: end.terminal.code } : {}) },
      ctx.runSpan,
    );
    if (end) return { ...end, model };
  }
}

/** Reads one finished call: a recovery, the tool calls, or the final answer. Undefined ⇒ go on. */
async function settleTurn(
  ctx: RunContext,
  message: AssistantMessage,
  model: Model,
  turnNumber: number,
): Promise<LoopEnd | undefined> {
  const { recovered } = ctx.state;
  if (isCut(message)) {
    // Cut at the cap: a tool call in it may be truncated, so nothing from this turn runs. The turn
    // is dropped (the next request is the same prefix) and asked again once with more room.
    const cap = outputCap(ctx, model);
    const room = Math.min(cap * 2, model.maxTokens);
    if (!recovered.maxTokens && room > cap) {
      recovered.maxTokens = true;
      ctx.maxTokensNow = room;
      ctx.notice({
        code: "run.max_tokens_retry",
        audience: "operator",
        message: `Turn ${turnNumber} was cut at ${cap} output tokens; asking again with ${room}.`,
        detail: { from: cap, to: room, model: model.id },
      });
      return undefined;
    }
    return failed(
      "max_tokens",
      `the reply was cut at the output cap (${cap} tokens)` +
        `${assistantToolCalls(message).length ? " inside a tool call, which was not run" : ""}`,
    );
  }
  if (message.stopReason === "error" && isDegenerateCutMessage(message)) {
    if (recovered.degenerate)
      return failed("degenerate_repetition", "the model looped on the same text again after a nudge", {
        errorKind: "degenerate_repetition",
      });
    recovered.degenerate = true;
    // Keep the salvaged prefix; a tool call inside a cut stream is never run, so it is not kept either.
    appendTurn(ctx, { ...message, content: message.content.filter((block) => block.type !== "toolCall") }, turnNumber);
    ctx.messages.push(engineNote(ctx, NUDGE.degenerate));
    return undefined;
  }
  appendTurn(ctx, message, turnNumber);
  if (assistantToolCalls(message).length > 0) {
    // The accepted response: durable before any of its calls runs, so a run continued after a
    // crash runs this turn's unanswered calls under the same ids (and idempotency keys) instead
    // of asking the model again — a real provider would name its calls anew.
    await checkpointIfDue(ctx);
    return callsEnd(await handledCalls(ctx, message, 0));
  }
  return finalAnswer(ctx, message);
}

/**
 * A turn's calls, then the end of any classification started for them while the turn streamed
 * that no gate took (the run parked or stopped before reaching its call): cancelled, and counted.
 */
async function handledCalls(ctx: RunContext, turn: AssistantMessage, start: number): Promise<CallsOutcome> {
  try {
    return await handleCalls(ctx, turn, start);
  } finally {
    await ctx.autoMode?.dropPrejudged();
  }
}

/** How a turn's calls end the run, if they do: parked on one, or stopped. Undefined ⇒ go on. */
function callsEnd(calls: CallsOutcome): LoopEnd | undefined {
  if ("done" in calls) return undefined;
  if ("park" in calls) return parkedEnd(calls.park);
  return { status: calls.status, terminal: calls.terminal };
}

/** The loop's end for a run that parks (again) on `park`. */
export function parkedEnd(park: PendingCall): LoopEnd {
  return {
    status: "parked",
    terminal: {
      code: "awaiting_approval",
      cause: "approval",
      message: `"${pendingToolName(park)}" waits for a person's approval`,
    },
    park,
  };
}

/**
 * A continued run's first step: the last accepted turn's calls that have no result yet (the run
 * stopped between them) run now, under the ids the model gave them; then the turns go on.
 */
export async function continueTurns(ctx: RunContext): Promise<LoopEnd> {
  const turn = pendingTurn(ctx.messages);
  const answered = turn ? ctx.messages.length - 1 - ctx.messages.lastIndexOf(turn) : 0;
  if (turn && answered < assistantToolCalls(turn).length) {
    const end = callsEnd(await handledCalls(ctx, turn, answered));
    if (end) return end;
  }
  return runTurns(ctx);
}

function appendTurn(ctx: RunContext, message: AssistantMessage, turnNumber: number): void {
  ctx.messages.push(message);
  ctx.state.stats.turns += 1;
  ctx.emit({ type: "turn_end", turn: turnNumber, message });
}

function finalAnswer(ctx: RunContext, message: AssistantMessage): LoopEnd | undefined {
  const { recovered } = ctx.state;
  const text = assistantText(message);
  if (text.trim() === "") {
    if (recovered.emptyAnswer) return failed("empty_answer", "the model gave an empty final answer twice");
    recovered.emptyAnswer = true;
    ctx.messages.push(engineNote(ctx, NUDGE.empty));
    return undefined;
  }
  if (ctx.output) {
    const parsed = parseOutput(ctx.output, text);
    if (!parsed.ok) {
      if (recovered.output)
        return {
          status: "failed",
          terminal: {
            code: "output_invalid",
            cause: "output",
            message: `the final answer does not match the output schema: ${parsed.problem}`,
          },
        };
      recovered.output = true;
      ctx.messages.push(engineNote(ctx, NUDGE.output(parsed.problem)));
      return undefined;
    }
    return {
      status: "completed",
      terminal: { code: "completed", cause: "done", message: "the model gave its final answer" },
      structured: parsed.value,
    };
  }
  return {
    status: "completed",
    terminal: { code: "completed", cause: "done", message: "the model gave its final answer" },
  };
}
