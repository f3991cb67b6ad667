import { describe, expect, it } from "vitest";
import { closest } from "./suggest";

describe("closest", () => {
  const flags = ["--timeout", "--max-turns", "--model", "--json", "--no-teacher"];

  it("finds the flag a typo meant", () => {
    expect(closest("--tiemout", flags)).toBe("--timeout");
    expect(closest("--max-turn", flags)).toBe("--max-turns");
    expect(closest("--jsno", flags)).toBe("--json");
  });

  it("suggests nothing for a word that is not near any flag", () => {
    expect(closest("--verbose", flags)).toBeUndefined();
    expect(closest("--x", flags)).toBeUndefined();
  });
});
