import { describe, expect, it } from "vitest";
import { backoffMs, failureAction, isFailedCall, resolveRetry } from "./retry";

describe("retry policy", () => {
  it("transient kinds retry; the rest fall back; an abort is an abort", () => {
    for (const kind of ["rate_limited", "overloaded", "timeout", "network", "provider"] as const)
      expect(failureAction({ stopReason: "error", errorKind: kind })).toBe("retry");
    for (const kind of ["auth", "bad_request", "content_filter", "context_overflow"] as const)
      expect(failureAction({ stopReason: "error", errorKind: kind })).toBe("fallback");
    expect(failureAction({ stopReason: "aborted", errorKind: "aborted" })).toBe("aborted");
  });

  it("a deliberate cut is not a failed call (the recovery lanes own it)", () => {
    expect(isFailedCall({ stopReason: "error", errorKind: "degenerate_repetition" })).toBe(false);
    expect(isFailedCall({ stopReason: "error", errorKind: "length_empty" })).toBe(false);
    expect(isFailedCall({ stopReason: "error", errorKind: "overloaded" })).toBe(true);
    expect(isFailedCall({ stopReason: "stop" })).toBe(false);
  });

  it("backoff doubles with ±50% jitter and a cap; retry-after wins, and past the cap means no retry", () => {
    const lo = resolveRetry({ baseDelayMs: 100, maxDelayMs: 1000, random: () => 0 });
    const hi = resolveRetry({ baseDelayMs: 100, maxDelayMs: 1000, random: () => 0.999 });
    expect([0, 1, 2].map((a) => backoffMs(a, lo))).toEqual([50, 100, 200]);
    expect(backoffMs(1, hi)).toBe(300);
    expect(backoffMs(10, hi)).toBe(1000);
    expect(backoffMs(0, lo, 750)).toBe(750);
    expect(backoffMs(0, lo, 1000)).toBe(1000);
    expect(backoffMs(0, lo, 60_000)).toBeUndefined();
  });

  it("options that cannot work are refused, typed, instead of retrying forever", () => {
    for (const retry of [
      { maxRetries: Number.NaN },
      { maxRetries: -1 },
      { baseDelayMs: 1.5 },
      { maxDelayMs: Number.POSITIVE_INFINITY },
      { random: 0.5 },
      { retries: 3 },
    ]) {
      expect(() => resolveRetry(retry as never), JSON.stringify(retry)).toThrow(
        expect.objectContaining({ code: "config.retry_invalid" }),
      );
    }
    expect(resolveRetry(undefined)).toMatchObject({ maxRetries: 2, baseDelayMs: 500, maxDelayMs: 30_000 });
  });
});
