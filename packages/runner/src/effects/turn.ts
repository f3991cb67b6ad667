import {
  AssistantMessageSchema,
  emptyUsage,
  jsonBoundsProblem,
  TOOL_ARGUMENT_BOUNDS,
  type AssistantMessage,
  type Brain,
  type BrainRequest,
  type Model,
  issuesLine,
  describeError,
} from "@x/llm-types";
import { isBuiltTurn } from "@x/brain-kit";
import { isStreamCut } from "@x/terminal-cause";
import { runBudgetExceeded } from "../decisions/budget";
import { contextMessages, modelChain, outputCap } from "../decisions/model-context";
import { backoffMs, failureAction, isFailedCall } from "../decisions/retry";
import { noListener, type RunContext } from "../state/run-context";
import { addModelCall } from "../state/stats";
import { SPAN_NAMES } from "./tracer";
import { streamJudge } from "./stream-judging";
import type { Terminal } from "../vocabulary/types";

export type TurnOutcome = { message: AssistantMessage; model: Model } | { terminal: Terminal };

function brokenBrainTurn(model: Model, error: unknown, now: number): AssistantMessage {
  return {
    role: "assistant",
    content: [],
    api: model.api,
    provider: model.provider,
    model: model.id,
    usage: emptyUsage(),
    stopReason: "error",
    errorKind: "provider",
    errorMessage: `the ${model.api} brain failed: ${describeError(error)}`,
    timestamp: now,
  };
}

/**
 * What is wrong with a tool call's arguments in a message that did not come from a TurnBuilder
 * (which bounds them as it parses): past {@link TOOL_ARGUMENT_BOUNDS} they would break the loop
 * guard and a park's signature later, as a bare `RangeError`.
 */
function oversizedArguments(message: AssistantMessage): string | undefined {
  for (const block of message.content) {
    if (block.type !== "toolCall") continue;
    const problem = jsonBoundsProblem(block.arguments, TOOL_ARGUMENT_BOUNDS);
    if (problem) return problem;
  }
  return undefined;
}

async function callOnce(ctx: RunContext, brain: Brain, model: Model, attempt: number): Promise<AssistantMessage> {
  const request: BrainRequest = {
    maxTokens: outputCap(ctx, model),
    signal: ctx.signal,
    cacheKey: ctx.sessionId ?? ctx.runId,
  };
  const reasoning = ctx.spec.reasoning ?? ctx.taskModel.thinking;
  if (reasoning) request.reasoning = reasoning;
  if (ctx.spec.modelTimeoutMs) request.timeoutMs = ctx.spec.modelTimeoutMs;
  const context = {
    messages: contextMessages(ctx, brain.borrowsContext === true),
    ...(ctx.systemPrompt !== undefined ? { systemPrompt: ctx.systemPrompt } : {}),
    ...(ctx.toolSpecs.length > 0 ? { tools: ctx.toolSpecs } : {}),
  };
  const span = ctx.tracer.start(
    SPAN_NAMES.modelCall,
    { model: model.id, provider: model.provider, api: model.api, attempt, maxTokens: request.maxTokens },
    ctx.turnSpan,
  );
  const turn = ctx.state.stats.turns + 1;
  let message: AssistantMessage;
  try {
    const stream = brain.stream(model, context, request);
    // The events are read to pass deltas on, and to hand each gated call to the classifier as soon
    // as its arguments are whole. With neither, `result()` alone is enough (the Brain contract:
    // iterate for events, or await the final turn) and saves an async iteration step per event.
    const judge = streamJudge(ctx, model, context, request.maxTokens ?? model.maxTokens);
    if (ctx.emit !== noListener || judge) {
      for await (const event of stream) {
        if (event.type === "text_delta") ctx.emit({ type: "text_delta", turn, delta: event.delta });
        else if (event.type === "thinking_delta") ctx.emit({ type: "thinking_delta", turn, delta: event.delta });
        else if (event.type === "toolcall_delta") ctx.emit({ type: "toolcall_delta", turn, delta: event.delta });
        else if (event.type === "toolcall_end") judge?.(event.toolCall);
      }
    }
    const returned: unknown = await stream.result();
    // The turn joins the history a park signs and a host stores: a brain that breaks the message
    // contract is caught here, as a provider failure, not later as a park that cannot be resumed.
    // A message a TurnBuilder ended (every brain on @x/brain-kit) is schema-valid by
    // construction, which brain-kit's tests assert for every ender, so only other brains'
    // messages are parsed. The brand is on the object, not its content: a brain that edits a built
    // message (or lets its own consumers edit it) before returning it answers for the edit, as any
    // brain answers for its message.
    if (isBuiltTurn(returned)) {
      message = returned as AssistantMessage;
    } else {
      const checked = AssistantMessageSchema.safeParse(returned);
      if (!checked.success) throw new Error(`it returned a malformed message (${issuesLine(checked.error)})`);
      message = checked.data;
      const oversized = oversizedArguments(message);
      if (oversized) throw new Error(`it returned a tool call whose arguments ${oversized}`);
    }
  } catch (error) {
    // A brain that breaks its never-throw contract is read as a provider failure, not a crash.
    message = brokenBrainTurn(model, error, ctx.deps.clock.now());
  }
  ctx.tracer.end(
    span,
    SPAN_NAMES.modelCall,
    {
      model: model.id,
      provider: model.provider,
      api: model.api,
      responseModel: message.model,
      inputTokens: message.usage.input + message.usage.cacheRead + message.usage.cacheWrite,
      outputTokens: message.usage.output,
      costMicroUsd: message.usage.cost.total,
      stopReason: message.stopReason,
      ...(message.errorKind ? { errorKind: message.errorKind } : {}),
    },
    ctx.turnSpan,
  );
  return message;
}

/**
 * One assistant turn: the budget is checked before every call; retryable failures — a cut stream
 * included — are retried with backoff (the provider's retry-after wins); a failure retrying will
 * not fix moves down the model chain. Every call a provider could bill counts, failed ones included;
 * the estimate for a call it never served is kept apart (`unbilled`). Never throws.
 */
export async function modelTurn(ctx: RunContext): Promise<TurnOutcome> {
  const chain = modelChain(ctx);
  let last: AssistantMessage | undefined;
  for (let index = ctx.chainIndex; index < chain.length; index++) {
    const model = chain[index]!;
    const brain = ctx.deps.brains.get(model.api);
    if (!brain) {
      ctx.notice({
        code: "config.no_brain",
        audience: "operator",
        message: `No brain is registered for api "${model.api}" (model ${model.id}).`,
        detail: { api: model.api, model: model.id },
      });
      continue;
    }
    if (index > ctx.chainIndex) {
      const from = chain[ctx.chainIndex]!;
      ctx.emit({
        type: "fallback",
        from: from.id,
        to: model.id,
        ...(last?.errorKind ? { errorKind: last.errorKind } : {}),
      });
      ctx.notice({
        code: "model.fallback",
        audience: "operator",
        message: `Model ${from.id} failed (${last?.errorKind ?? "unavailable"}); the run continues on ${model.id}.`,
        detail: { from: from.id, to: model.id, errorKind: last?.errorKind },
      });
      ctx.chainIndex = index;
    }
    for (let attempt = 0; ; attempt++) {
      const over = runBudgetExceeded(ctx);
      if (over) return { terminal: over };
      if (ctx.signal.aborted) return { terminal: { code: "aborted", cause: "host", message: "the run was aborted" } };
      const message = await callOnce(ctx, brain, model, attempt);
      addModelCall(ctx.state.stats, message);
      if (!isFailedCall(message)) return { message, model };
      // What arrived is not a turn: the calls it started classifying will not run.
      await ctx.autoMode?.dropPrejudged();
      last = message;
      const action = failureAction(message);
      if (action === "aborted")
        return { terminal: { code: "aborted", cause: "host", message: "the run was aborted", errorKind: "aborted" } };
      if (action !== "retry" || attempt >= ctx.deps.retry.maxRetries) break;
      const delayMs = backoffMs(attempt, ctx.deps.retry, message.retryAfterMs);
      if (delayMs === undefined) break;
      ctx.state.stats.retries += 1;
      ctx.emit({
        type: "retry",
        model: model.id,
        attempt: attempt + 1,
        delayMs,
        ...(message.errorKind ? { errorKind: message.errorKind } : {}),
      });
      try {
        await ctx.deps.clock.sleep(delayMs, ctx.signal);
      } catch {
        return { terminal: { code: "aborted", cause: "host", message: "the run was aborted" } };
      }
    }
  }
  if (!last)
    return {
      terminal: {
        code: "no_brain",
        cause: "config",
        message:
          "no brain is registered for any model of the chain " + `(${chain.map((m) => `${m.id}:${m.api}`).join(", ")})`,
      },
    };
  return { terminal: failedCallTerminal(last) };
}

/**
 * How a run ends on a call that kept failing: `stream_cut` when the provider never finished the
 * last stream (what arrived is not an answer; `errorKind` says why it was cut, `network` when the
 * brain gave no cause), else `model_error` with the failure's kind.
 */
function failedCallTerminal(last: AssistantMessage): Terminal {
  if (isStreamCut(last)) {
    return {
      code: "stream_cut",
      cause: "model",
      message:
        "the reply was cut before the provider finished it " +
        `(${last.errorMessage ?? "stream ended early"}); what arrived is not an answer`,
      errorKind: last.errorKind ?? "network",
    };
  }
  const terminal: Terminal = {
    code: "model_error",
    cause: "model",
    message: last.errorMessage ?? `model call failed (${last.errorKind ?? "unknown"})`,
  };
  if (last.errorKind) terminal.errorKind = last.errorKind;
  return terminal;
}
