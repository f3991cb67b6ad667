import { describe, expect, it } from "vitest";
import { wilson } from "./wilson";

describe("wilson", () => {
  it("matches the textbook 95 % score intervals", () => {
    expect(wilson(0, 10)).toMatchObject({ rate: 0, low: 0 });
    expect(wilson(0, 10).high).toBeCloseTo(0.2775, 4);
    expect(wilson(5, 10).low).toBeCloseTo(0.2366, 4);
    expect(wilson(5, 10).high).toBeCloseTo(0.7634, 4);
    expect(wilson(10, 10).low).toBeCloseTo(0.7225, 4);
    expect(wilson(10, 10).high).toBe(1);
    expect(wilson(17, 100).low).toBeCloseTo(0.1089, 4);
    expect(wilson(17, 100).high).toBeCloseTo(0.2555, 4);
  });

  it("has no rate and no interval with no case", () => {
    expect(wilson(0, 0)).toEqual({ count: 0, of: 0 });
  });
});
