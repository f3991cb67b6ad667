import { ClassifierLegError } from "./errors";

export interface RungBudget {
  readonly signal: AbortSignal;
  /** Settles (never resolves to a value) when the budget runs out or the caller aborts. */
  readonly expired: Promise<never>;
  remaining(): number;
  timedOut(): boolean;
  stop(): void;
}

/**
 * One rung's budget: a deadline that aborts the request (for brains that honour the signal) and
 * also rejects a race (for brains that do not), linked to the caller's own signal.
 */
export function startRungBudget(timeoutMs: number, outer: AbortSignal | undefined): RungBudget {
  const controller = new AbortController();
  const deadline = performance.now() + timeoutMs;
  let timedOut = false;
  let reject!: (error: ClassifierLegError) => void;
  const expired = new Promise<never>((_, rej) => (reject = rej));
  expired.catch(() => undefined);
  const timer = setTimeout(() => {
    timedOut = true;
    reject(new ClassifierLegError("timeout", `the classifier did not answer within ${timeoutMs} ms`));
    controller.abort();
  }, timeoutMs);
  const onOuterAbort = () => {
    reject(new ClassifierLegError("error", "the caller cancelled the classification"));
    controller.abort();
  };
  if (outer?.aborted) onOuterAbort();
  else outer?.addEventListener("abort", onOuterAbort, { once: true });
  return {
    signal: controller.signal,
    expired,
    remaining: () => deadline - performance.now(),
    timedOut: () => timedOut,
    stop: () => {
      clearTimeout(timer);
      outer?.removeEventListener("abort", onOuterAbort);
    },
  };
}
