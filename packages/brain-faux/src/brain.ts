import {
  type Brain,
  type BrainRequest,
  type BrainStream,
  type Context,
  type Model,
  type ReasoningLevel,
  describeError,
} from "@x/llm-types";
import { startTurn, type RepetitionGuardOptions, type TurnBuilder } from "@x/brain-kit";
import { Interrupt, play } from "./play";
import type { FauxResponder, FauxResponse, FauxScriptItem } from "./response";

export interface FauxBrainOptions {
  /**
   * The wire this brain answers for. Default `"faux"`; set e.g. `"openai-completions"` to stand in for a real brain.
   */
  api?: string;
  /** Characters per streamed delta. Default 4. */
  chunkSize?: number;
  /** Pause between deltas. Default 0 (a microtask; timers still get a turn every 64 deltas). */
  chunkDelayMs?: number;
  /** Silence after which a stalled reply is kept as `partialFinalized`. Default 1000; `request.stallTimeoutMs` wins. */
  stallTimeoutMs?: number;
  /** Repetition guard options for the TurnBuilder; `false` turns it off. */
  guard?: RepetitionGuardOptions | false;
  /**
   * Which calls `calls` keeps: `true` (default) every one, a number the most recent that many,
   * `false` none. Each kept call holds a deep copy of its context, so a long benchmark or soak run
   * would otherwise grow without bound.
   */
  recordCalls?: boolean | number;
  /**
   * Says the brain borrows its context (`Brain.borrowsContext`), as the real brains do, so a
   * runner lends it one growing messages array per run instead of a copy per call. Default false:
   * a responder is handed the context and may keep it; set this only when none does.
   */
  borrowsContext?: boolean;
}

/** One call the brain received, as it was asked. */
export interface FauxCall {
  callIndex: number;
  model: Model;
  /** A deep copy taken when the call was made: later mutation by the caller does not show here. */
  context: Context;
  /** The effective output cap (request's, else the model's). */
  maxTokens: number;
  reasoning: ReasoningLevel | undefined;
  cacheKey: string | undefined;
  timeoutMs: number | undefined;
  stallTimeoutMs: number | undefined;
  headers: Record<string, string> | undefined;
  stop: string[] | undefined;
}

export interface FauxBrain extends Brain {
  readonly api: string;
  /** The calls so far, in order (only the most recent ones, or none, per `recordCalls`). */
  readonly calls: readonly FauxCall[];
  /** Scripted replies still queued. */
  readonly pending: number;
  /** Appends replies (or responder functions) to the queue. */
  push(...items: FauxScriptItem[]): this;
  stream(model: Model, context: Context, request?: BrainRequest): BrainStream;
}

/**
 * A scriptable Brain that streams real deltas through the shared TurnBuilder, so it cuts, caps
 * and classifies exactly like the real brains. Replies come from a queue (`script` array, then
 * `push`), each a {@link FauxResponse} or a function of the request. A single function as
 * `script` answers every call. An empty queue answers with a typed `provider` error, never a hang.
 */
export function createFauxBrain(
  script: FauxScriptItem[] | FauxResponder = [],
  options: FauxBrainOptions = {},
): FauxBrain {
  return new FauxBrainImpl(script, options);
}

class FauxBrainImpl implements FauxBrain {
  readonly api: string;
  readonly borrowsContext: boolean;
  readonly calls: FauxCall[] = [];
  private callCount = 0;
  private readonly keep: number;
  private readonly queue: FauxScriptItem[];
  private readonly fallback: FauxResponder | undefined;

  constructor(
    script: FauxScriptItem[] | FauxResponder,
    private readonly options: FauxBrainOptions,
  ) {
    this.api = options.api ?? "faux";
    this.borrowsContext = options.borrowsContext ?? false;
    const record = options.recordCalls ?? true;
    this.keep = record === true ? Infinity : record === false ? 0 : Math.max(0, Math.trunc(record));
    this.queue = typeof script === "function" ? [] : [...script];
    this.fallback = typeof script === "function" ? script : undefined;
  }

  get pending(): number {
    return this.queue.length;
  }

  push(...items: FauxScriptItem[]): this {
    this.queue.push(...items);
    return this;
  }

  stream(model: Model, context: Context, request?: BrainRequest): BrainStream {
    return startTurn(model, context, request, { api: this.api, guard: this.options.guard }, (turn, call) =>
      this.run(turn, model, context, call),
    );
  }

  /** Keeps a call per `recordCalls`; the copy is only made when it is kept. */
  private record(call: () => FauxCall): void {
    if (this.keep === 0) return;
    this.calls.push(call());
    if (this.calls.length > this.keep) this.calls.splice(0, this.calls.length - this.keep);
  }

  private async run(turn: TurnBuilder, model: Model, context: Context, request: BrainRequest): Promise<void> {
    const callIndex = this.callCount++;
    const maxTokens = request.maxTokens ?? model.maxTokens;
    this.record(() => ({
      callIndex,
      model,
      context: snapshot(context),
      maxTokens,
      reasoning: request.reasoning,
      cacheKey: request.cacheKey,
      timeoutMs: request.timeoutMs,
      stallTimeoutMs: request.stallTimeoutMs,
      headers: request.headers ? { ...request.headers } : undefined,
      stop: request.stop ? [...request.stop] : undefined,
    }));
    const item = this.queue.shift() ?? this.fallback;
    const interrupt = new Interrupt();
    const onAbort = () => interrupt.abort();
    request.signal?.addEventListener("abort", onAbort, { once: true });
    if (request.signal?.aborted) interrupt.abort();
    const deadline =
      request.timeoutMs === undefined ? undefined : setTimeout(() => interrupt.timeout(), request.timeoutMs);
    try {
      if (item === undefined) {
        turn.fail("provider", `faux script exhausted: no scripted reply left for call #${callIndex}`);
        return;
      }
      let response: FauxResponse | undefined;
      try {
        const ctx = { model, context, request, callIndex };
        response = typeof item === "function" ? await interrupt.until(Promise.resolve().then(() => item(ctx))) : item;
      } catch (error) {
        turn.fail("provider", `faux responder threw: ${describeError(error)}`);
        return;
      }
      if (response === undefined || interrupt.stopped) {
        interrupt.stop(turn, request.timeoutMs);
        return;
      }
      await play(response, turn, interrupt, {
        chunkSize: Math.max(1, this.options.chunkSize ?? 4),
        chunkDelayMs: this.options.chunkDelayMs ?? 0,
        stallTimeoutMs: request.stallTimeoutMs ?? this.options.stallTimeoutMs ?? 1000,
        timeoutMs: request.timeoutMs,
        budgetChars: maxTokens * 4,
        callIndex,
      });
    } finally {
      clearTimeout(deadline);
      request.signal?.removeEventListener("abort", onAbort);
    }
  }
}

function snapshot(context: Context): Context {
  try {
    return structuredClone(context);
  } catch {
    return JSON.parse(JSON.stringify(context)) as Context;
  }
}
