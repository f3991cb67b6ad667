import { describe, expect, it } from "vitest";
import { withoutUndefined } from "./defined";

describe("withoutUndefined", () => {
  it("drops undefined fields and keeps null, 0, false and empty strings", () => {
    const value = { a: undefined, b: null, c: 0, d: false, e: "" };
    const copy = withoutUndefined(value);
    expect(copy).toEqual({ b: null, c: 0, d: false, e: "" });
    expect(Object.keys(copy)).toEqual(["b", "c", "d", "e"]);
    expect(value).toHaveProperty("a");
  });

  it("lets defaults survive a spread of an options object with undefined values", () => {
    const defaults = { stall: 30, limit: 5 };
    expect({ ...defaults, ...withoutUndefined({ stall: undefined, limit: 9 }) }).toEqual({ stall: 30, limit: 9 });
  });
});
