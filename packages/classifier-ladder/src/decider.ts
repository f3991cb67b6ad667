import {
  AssistantMessageSchema,
  MAX_TIMER_MS,
  addUsage,
  describeError,
  emptyUsage,
  issuesLine,
  type AssistantMessage,
  type Brain,
  type Message,
  type Model,
  type NoticeSink,
  type ToolCall,
  type ToolSpec,
  type Tracer,
  type Usage,
  type UserMessage,
} from "@x/llm-types";
import { ClassifierConfigError, ClassifierLegError } from "./errors";
import { classifierRoundObserver } from "./observer";
import { armClassifierLadder, type RouteJudge } from "./preflight";
import {
  classifierReplyAsksAgain,
  classifierReplyFailure,
  classifierReplyTagOnly,
  classifierReplyVerdictText,
} from "./reply";
import { CLASSIFIER_THINK_SEAT, classifierRungSeat, type ClassifierSeatRequest } from "./rung-seat";
import type { AutoModeFallback, AutoModeOutcome, AutoModeVerdict } from "./outcome";
import { CLASSIFIER_SYSTEM_PROMPT } from "./prompt";
import type { ClassifierSeat } from "./seat";
import { CLASSIFIER_ATTEMPT_SUFFIX } from "./suffix";
import { classifierRequest, type ClassifierRequest } from "./transcript";
import { startRungBudget, type RungBudget } from "./rung-budget";
import { readClassifierVerdict } from "./verdict";

export interface AutoModeDecideInput {
  toolCall: ToolCall;
  /** The agent's full history; the decider keeps only user messages and the agent's tool calls. */
  transcript: readonly Message[];
  tools?: readonly ToolSpec[];
  signal?: AbortSignal;
}

export interface AutoModeDecider {
  /** The budget each rung holds, in milliseconds. */
  readonly timeoutMs: number;
  /** The model rung 0 runs on (the main model after a pre-flight swap). */
  readonly model: Model;
  readonly rungs: readonly Model[];
  /** Never throws and never rejects: every failure is `unavailable`. */
  decide(input: AutoModeDecideInput): Promise<AutoModeOutcome>;
}

export const DEFAULT_CLASSIFIER_TIMEOUT_MS = 20_000;
const DEFAULT_BLOCK_REASON = "the classifier blocked this call without stating a reason";

export interface CreateAutoModeDeciderArgs {
  /** The host's brain lookup (by `model.api`). */
  brainFor: (model: Model) => Brain | undefined;
  seat: ClassifierSeat;
  main: Model;
  /** `"main"` (default) or `"none"`; anything else throws a {@link ClassifierConfigError}. */
  classifierFallback?: unknown;
  /** The host's credential/URL judge, asked once before any call. */
  routeJudge?: RouteJudge;
  /** Budget per rung (its first attempt and any re-ask together). Default 20 s. */
  timeoutMs?: number;
  onNotice?: NoticeSink;
  tracer?: Tracer;
  taskId: string;
  sessionId?: string;
  runId?: string;
  /** Replaces the built-in classifier system prompt. */
  systemPrompt?: string;
  /**
   * Asked before EVERY classifier call with the usage this classification has spent so far; a
   * string refuses the call (the host's budget is spent) and is its reason. A refused call is a
   * leg failure, so the classification ends `unavailable` and never allows. A throw refuses too.
   */
  admitCall?: (spent: Usage) => string | undefined;
}

type RungResult = { ruled: AutoModeVerdict; reasked: boolean } | { failed: ClassifierLegError };

/**
 * Arms auto mode for one run — screens the fallback knob, runs the route pre-flight, builds the
 * rungs, announces the run's notices — and returns the decider that judges each gated call.
 *
 * Per classification: rung by rung, a first attempt on the rung's reasoning preset with the first
 * suffix; one re-ask on the think preset when the reply is missing a verdict; a failed call or an exhausted budget
 * moves to the next rung, and with no rung left the outcome is `unavailable`. A reply is allowed
 * only on exactly one clean "no".
 */
export function createAutoModeDecider(args: CreateAutoModeDeciderArgs): AutoModeDecider {
  const timeoutMs = args.timeoutMs ?? DEFAULT_CLASSIFIER_TIMEOUT_MS;
  // Past the largest delay a timer can hold, Node fires it after 1 ms: every classification would
  // time out, silently, so such a budget is refused like a negative one.
  if (typeof timeoutMs !== "number" || !Number.isFinite(timeoutMs) || timeoutMs <= 0 || timeoutMs > MAX_TIMER_MS) {
    throw new ClassifierConfigError(
      "config.auto_mode_classifier_timeout_invalid",
      `timeoutMs must be a positive number of milliseconds up to ${MAX_TIMER_MS}, got ${String(timeoutMs)}`,
      timeoutMs,
    );
  }
  const ids = {
    ...(args.sessionId !== undefined ? { sessionId: args.sessionId } : {}),
    ...(args.runId !== undefined ? { runId: args.runId } : {}),
  };
  const armed = armClassifierLadder({
    seat: args.seat,
    main: args.main,
    classifierFallback: args.classifierFallback,
    ...(args.routeJudge ? { routeJudge: args.routeJudge } : {}),
    ...(args.onNotice ? { onNotice: args.onNotice } : {}),
    ...ids,
  });
  const observe = classifierRoundObserver({
    tracer: args.tracer,
    onNotice: args.onNotice,
    taskId: args.taskId,
    seatModelId: armed.model.id,
    ...ids,
  });
  const systemPrompt = args.systemPrompt ?? CLASSIFIER_SYSTEM_PROMPT;
  const cacheKey = `auto-mode-classifier:${args.sessionId ?? args.taskId}`;

  async function call(
    model: Model,
    brain: Brain,
    preset: ClassifierSeatRequest,
    request: ClassifierRequest,
    budget: RungBudget,
  ): Promise<AssistantMessage> {
    const { text, cachePoints } = request;
    const asked: UserMessage = {
      role: "user",
      content: text,
      cachePoints,
      timestamp: Date.now(),
      provenance: "engine",
    };
    const stream = brain.stream(
      model,
      { systemPrompt, messages: [asked] },
      {
        maxTokens: preset.maxTokens,
        reasoning: preset.reasoning,
        signal: budget.signal,
        timeoutMs: Math.max(1, budget.remaining()),
        cacheKey,
      },
    );
    const returned: unknown = await Promise.race([stream.result(), budget.expired]);
    // A reply outside the message contract (an unknown stop, no usage) is no reply the reader may
    // judge: its text might say "no", but nothing vouches that it is a whole answer.
    const checked = AssistantMessageSchema.safeParse(returned);
    if (!checked.success)
      throw new ClassifierLegError(
        "error",
        `the classifier's brain returned a malformed reply (invalid reply: ${issuesLine(checked.error)})`,
      );
    return checked.data;
  }

  function admit(spent: Usage): string | undefined {
    if (!args.admitCall) return undefined;
    try {
      return args.admitCall(spent);
    } catch (error) {
      return `the admission check threw: ${describeError(error)}`;
    }
  }

  function lookupBrain(model: Model): Brain | ClassifierLegError {
    try {
      return args.brainFor(model) ?? new ClassifierLegError("error", `no brain is registered for api ${model.api}`);
    } catch (error) {
      return new ClassifierLegError("error", `the brain lookup for ${model.api} threw: ${describeError(error)}`);
    }
  }

  async function runRung(
    model: Model,
    input: AutoModeDecideInput,
    tally: { calls: number; usage: Usage },
  ): Promise<RungResult> {
    const brain = lookupBrain(model);
    if (brain instanceof ClassifierLegError) return { failed: brain };
    const budget = startRungBudget(timeoutMs, input.signal);
    try {
      const attempt = async (preset: ClassifierSeatRequest, suffix: string) => {
        const text = classifierRequest({ ...input, suffix });
        const refused = admit(tally.usage);
        if (refused !== undefined) throw new ClassifierLegError("error", `the classifier was not asked: ${refused}`);
        tally.calls++;
        const reply = await call(model, brain, preset, text, budget);
        tally.usage = addUsage(tally.usage, reply.usage);
        if (budget.timedOut())
          throw new ClassifierLegError("timeout", `the classifier did not answer within ${timeoutMs} ms`);
        const failure = classifierReplyFailure(reply);
        if (failure) throw failure;
        return reply;
      };
      let reply = await attempt(classifierRungSeat(model), CLASSIFIER_ATTEMPT_SUFFIX.first);
      const reasked = classifierReplyAsksAgain(reply);
      if (reasked) reply = await attempt(CLASSIFIER_THINK_SEAT, CLASSIFIER_ATTEMPT_SUFFIX.reask);
      return { ruled: rule(reply), reasked };
    } catch (error) {
      if (error instanceof ClassifierLegError) return { failed: error };
      return { failed: new ClassifierLegError("error", `the classifier call failed: ${describeError(error)}`) };
    } finally {
      budget.stop();
    }
  }

  async function decide(input: AutoModeDecideInput): Promise<AutoModeOutcome> {
    const started = performance.now();
    const tally = { calls: 0, usage: emptyUsage() };
    let model = armed.model;
    let fallback: AutoModeFallback | undefined;
    let result: AutoModeVerdict & { reasked?: boolean };
    try {
      result = armed.unroutable
        ? {
            verdict: "unavailable",
            cause: "error",
            error: `the classifier route is unusable (${armed.unroutable.cause}) and classifierFallback is "none"`,
          }
        : await walk();
    } catch (error) {
      result = { verdict: "unavailable", cause: "error", error: `the classifier failed: ${describeError(error)}` };
    }

    async function walk(): Promise<AutoModeVerdict & { reasked?: boolean }> {
      let failure: ClassifierLegError | undefined;
      for (const [index, rung] of armed.rungs.entries()) {
        if (input.signal?.aborted) break;
        if (index > 0) fallback = { from: armed.rungs[0]!.id, to: rung.id, cause: failure?.failure ?? "error" };
        model = rung;
        const outcome = await runRung(rung, input, tally);
        if ("ruled" in outcome) return { ...outcome.ruled, reasked: outcome.reasked };
        failure = outcome.failed;
      }
      const caller = input.signal?.aborted ? "the caller cancelled the classification" : undefined;
      return {
        verdict: "unavailable",
        cause: caller ? "error" : (failure?.failure ?? "error"),
        error: caller ?? failure?.message ?? "no classifier rung",
      };
    }

    const { reasked = false, ...verdict } = result;
    const outcome: AutoModeOutcome = {
      ...verdict,
      model: model.id,
      ...(fallback ? { fallback } : {}),
      calls: tally.calls,
      usage: tally.usage,
      wallMs: Math.round(performance.now() - started),
      reasked,
    };
    try {
      observe({ ...outcome, toolName: input.toolCall.name, toolCallId: input.toolCall.id });
    } catch {
      // Observers never change a verdict.
    }
    return outcome;
  }

  return { timeoutMs, model: armed.model, rungs: armed.rungs, decide };
}

/** Reads the final reply of a rung into a ruling. */
function rule(reply: AssistantMessage): AutoModeVerdict {
  const tagOnly = classifierReplyTagOnly(reply);
  const read = readClassifierVerdict(classifierReplyVerdictText(reply), { complete: !tagOnly });
  if (read.kind === "parse_error") return { verdict: "parse_error", form: read.form };
  return read.block ? { verdict: "block", reason: read.reason ?? DEFAULT_BLOCK_REASON } : { verdict: "allow" };
}
