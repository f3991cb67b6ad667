/** Attempts one reconnect may make (the first included) before the call fails `server_disconnected`. */
export const MAX_RECONNECT_ATTEMPTS = 8;
const FIRST_DELAY_MS = 100;
const MAX_DELAY_MS = 2_000;

/** Wait before reconnect attempt `attempt + 1`: 100 ms doubling to at most 2 s (about 9 s over all attempts). */
export function reconnectDelay(attempt: number): number {
  return Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** attempt);
}

/** Resolves after `ms`, or at once when `signal` aborts (the toolset was closed). */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}
