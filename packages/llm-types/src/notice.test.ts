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
});
