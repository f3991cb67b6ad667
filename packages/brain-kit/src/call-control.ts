import { describeError } from "@x/llm-types";
import { isTransportError, type ClassifiedError } from "./provider-errors";
import type { FeedResult, TurnBuilder } from "./turn-builder";

/** The stall timeout a brain uses when neither its options nor the request set one. */
export const DEFAULT_STALL_TIMEOUT_MS = 120_000;

/**
 * Why the brain itself stopped the HTTP call: the caller's signal, the whole-call deadline, the
 * stall timer, or the repetition guard (the turn is over and the request no longer needed).
 */
export type CutReason = "aborted" | "timeout" | "stall" | "guard";

/**
 * One call's cancellation: the caller's signal, the whole-call deadline and the stall timer all
 * abort the same controller, and the first one to fire is remembered so the turn says why it ended.
 * SDKs treat an aborted stream as a quiet end, so the reason must be read from here, not from an
 * exception. Call `dispose()` when the call is over.
 */
export class CallControl {
  readonly controller = new AbortController();
  private why: CutReason | undefined;
  private deadline: ReturnType<typeof setTimeout> | undefined;
  private stallTimer: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;
  private readonly onCallerAbort = () => this.cut("aborted");

  constructor(
    private readonly signal: AbortSignal | undefined,
    readonly timeoutMs: number | undefined,
    readonly stallTimeoutMs: number,
  ) {
    if (signal?.aborted) this.cut("aborted");
    else signal?.addEventListener("abort", this.onCallerAbort, { once: true });
    if (timeoutMs !== undefined && timeoutMs > 0) this.deadline = setTimeout(() => this.cut("timeout"), timeoutMs);
  }

  get reason(): CutReason | undefined {
    return this.why;
  }

  /** (Re)starts the stall timer: call when the stream opens and on every chunk. */
  heartbeat(): void {
    if (this.why || this.disposed || this.stallTimeoutMs <= 0) return;
    // Called on every chunk: re-arming the one timer costs far less than clearing and making one.
    if (this.stallTimer) this.stallTimer.refresh();
    else this.stallTimer = setTimeout(() => this.cut("stall"), this.stallTimeoutMs);
  }

  cut(reason: CutReason): void {
    if (this.why) return;
    this.why = reason;
    this.controller.abort();
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.deadline);
    clearTimeout(this.stallTimer);
    this.signal?.removeEventListener("abort", this.onCallerAbort);
  }
}

/**
 * Hands one streamed item to the brain's reader: `true` to go on, `false` once the call wants no
 * more (the repetition guard ended the turn and the request is being cut).
 */
export type ItemSink<T> = (item: T) => boolean;

/**
 * Runs one streamed call under `control`: opens the provider stream with the control's signal and
 * a sink that takes each item as it arrives, runs the stall timer from the moment the request goes
 * out (a server that never answers is a stall too, deadline or not) and restarts it on every item,
 * feeds each item to `read`, and stops (cutting the request) when `read` says the repetition guard
 * ended the turn. Resolves with what the call threw, if it threw before any cut; never rejects.
 * Disposes the control.
 */
export async function pumpCall<T>(
  control: CallControl,
  open: (signal: AbortSignal, sink: ItemSink<T>) => Promise<void>,
  read: (item: T) => FeedResult,
): Promise<{ error?: unknown }> {
  let cut = false;
  const sink = (item: T): boolean => {
    if (cut) return false;
    control.heartbeat();
    if (read(item) !== "cut") return true;
    cut = true;
    control.cut("guard");
    return false;
  };
  try {
    control.heartbeat();
    await open(control.controller.signal, sink);
    return {};
  } catch (error) {
    // A body the guard's cut destroyed rejects with that abort: the turn already ended.
    return cut ? {} : { error };
  } finally {
    control.dispose();
  }
}

/** How a streamed call went, as {@link settleCall} reads it. */
export interface CallOutcome {
  /** Ends the turn the way the provider finished it; undefined when no stop/finish reason arrived. */
  finish: (() => void) | undefined;
  /** What the call threw, if it threw. */
  error?: unknown;
  /** Reads an error the provider's SDK raised; undefined for anything that is not the SDK's. */
  classify(error: unknown): ClassifiedError | undefined;
}

/**
 * Ends `turn` from how the call went, the same way for every brain: an abort wins; a provider that
 * finished the turn loses nothing to a later stall or drop; a deadline or stall keeps what arrived
 * (`timeout`); a clean end or a dropped connection without a finish keeps what arrived (`network`);
 * an SDK error becomes its classified kind; anything else is a `provider` failure that names the
 * error. A turn that already ended (the guard cut it) is left alone.
 */
export function settleCall(turn: TurnBuilder, control: CallControl, outcome: CallOutcome): void {
  if (turn.isEnded) return;
  if (control.reason === "aborted") {
    turn.abort();
    return;
  }
  if (outcome.finish) {
    outcome.finish();
    return;
  }
  if (control.reason === "timeout" || control.reason === "stall") {
    turn.cutShort(
      "timeout",
      control.reason === "stall"
        ? `no bytes for ${control.stallTimeoutMs} ms; the stream was cut at the stall`
        : `no complete reply within ${control.timeoutMs} ms`,
    );
    return;
  }
  if (!("error" in outcome) || outcome.error === undefined) {
    turn.cutShort("network", "the stream ended before the provider finished the turn; what arrived was kept");
    return;
  }
  const failure = outcome.classify(outcome.error);
  if (failure) {
    turn.fail(
      failure.kind,
      failure.message,
      failure.retryAfterMs === undefined ? {} : { retryAfterMs: failure.retryAfterMs },
    );
    return;
  }
  if (isTransportError(outcome.error)) {
    turn.cutShort("network", `the connection dropped mid-stream: ${describeError(outcome.error)}`);
    return;
  }
  turn.fail("provider", `internal error: ${describeError(outcome.error)}`);
}
