import { describe, expect, it } from "vitest";
import { ClassifierLegError } from "./errors";
import { startRungBudget } from "./rung-budget";

describe("startRungBudget", () => {
  it("at its deadline: rejects with a timeout leg failure and aborts the request signal", async () => {
    const budget = startRungBudget(5, undefined);
    const failure = await budget.expired.catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ClassifierLegError);
    expect(failure).toMatchObject({ failure: "timeout" });
    expect(budget.timedOut()).toBe(true);
    expect(budget.signal.aborted).toBe(true);
    budget.stop();
  });

  it("on the caller's abort (before or during): rejects with an error leg failure, not a timeout", async () => {
    for (const abortFirst of [true, false]) {
      const caller = new AbortController();
      if (abortFirst) caller.abort();
      const budget = startRungBudget(60_000, caller.signal);
      if (!abortFirst) caller.abort();
      const failure = await budget.expired.catch((error: unknown) => error);
      expect(failure).toMatchObject({ failure: "error" });
      expect(budget.timedOut()).toBe(false);
      expect(budget.signal.aborted).toBe(true);
      budget.stop();
    }
  });
});
