/** Why the brain itself stopped the HTTP call. */
/** `guard`: the repetition guard ended the turn and the request is no longer needed. */
export type CutReason = "aborted" | "timeout" | "stall" | "guard";

/**
 * One call's cancellation: the caller's signal, the whole-call deadline and the stall timer all
 * abort the same controller, and the first one to fire is remembered so the turn says why it ended.
 * The SDK treats an aborted stream as a quiet end, so the reason must be read from here, not from
 * an exception.
 */
export class CallControl {
  readonly controller = new AbortController();
  private why: CutReason | undefined;
  private deadline: ReturnType<typeof setTimeout> | undefined;
  private stallTimer: ReturnType<typeof setTimeout> | undefined;
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
    if (this.why || this.stallTimeoutMs <= 0) return;
    clearTimeout(this.stallTimer);
    this.stallTimer = setTimeout(() => this.cut("stall"), this.stallTimeoutMs);
  }

  cut(reason: CutReason): void {
    if (this.why) return;
    this.why = reason;
    this.controller.abort();
  }

  dispose(): void {
    clearTimeout(this.deadline);
    clearTimeout(this.stallTimer);
    this.signal?.removeEventListener("abort", this.onCallerAbort);
  }
}
