import { describe, expect, it } from "vitest";
import { safeObserve } from "./notice";

describe("safeObserve", () => {
  it("delivers to the observer and swallows what it throws", () => {
    const got: number[] = [];
    safeObserve((v: number) => got.push(v), 1);
    expect(() =>
      safeObserve(() => {
        throw new Error("sink down");
      }, 2),
    ).not.toThrow();
    safeObserve(undefined, 3);
    expect(got).toEqual([1]);
  });

  it("contains an async observer's rejection: nothing goes unhandled", async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      // An async sink, as a host may write one; typed as the void observer it is passed as.
      const asyncSink = (async () => {
        throw new Error("async sink down");
      }) as unknown as (value: number) => void;
      safeObserve(asyncSink, 1);
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });
});
