import { describe, expect, it } from "vitest";
import { jsonBoundsProblem } from "./json-bounds";

const nested = (depth: number): unknown => JSON.parse(`${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`);

describe("jsonBoundsProblem", () => {
  it("measures a value far too deep for recursive code without overflowing, and names the bound", () => {
    const deep = JSON.parse(`${"[".repeat(200_000)}${"]".repeat(200_000)}`) as unknown;
    expect(() => JSON.stringify(deep)).toThrow(RangeError);
    expect(jsonBoundsProblem(deep, { maxDepth: 64, maxSize: 1e9 })).toBe("nests deeper than 64 levels");
  });

  it("counts levels from the top value: exactly maxDepth fits, one more does not", () => {
    expect(jsonBoundsProblem(nested(63), { maxDepth: 64, maxSize: 1e6 })).toBeUndefined();
    expect(jsonBoundsProblem(nested(64), { maxDepth: 64, maxSize: 1e6 })).toBeUndefined();
    expect(jsonBoundsProblem(nested(65), { maxDepth: 64, maxSize: 1e6 })).toBe("nests deeper than 64 levels");
    expect(jsonBoundsProblem("flat", { maxDepth: 1, maxSize: 10 })).toBeUndefined();
  });

  it("counts strings and keys toward the size, and stops at the bound", () => {
    expect(jsonBoundsProblem({ key: "x".repeat(90) }, { maxDepth: 8, maxSize: 100 })).toBeUndefined();
    expect(jsonBoundsProblem({ key: "x".repeat(100) }, { maxDepth: 8, maxSize: 100 })).toBe(
      "is larger than 100 characters",
    );
    expect(
      jsonBoundsProblem(
        Array.from({ length: 1000 }, () => 0),
        { maxDepth: 8, maxSize: 500 },
      ),
    ).toBe("is larger than 500 characters");
  });

  it("ends on a cyclic value (a host's object, not JSON) at the size bound", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(jsonBoundsProblem(cyclic, { maxDepth: 1e9, maxSize: 1000 })).toBe("is larger than 1000 characters");
  });
});
