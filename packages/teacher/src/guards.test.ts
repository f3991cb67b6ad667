import { describe, expect, it } from "vitest";
import { checkGuards } from "./guards";

const limits = { maxEscalations: 3, teacherSpendRatioCap: 0.4 };

describe("checkGuards", () => {
  it("lets the first escalation through whatever the ratio", () => {
    expect(checkGuards({ escalations: 0, teacherTokens: 0, studentTokens: 0 }, limits)).toBeUndefined();
  });
  it("refuses at maxEscalations", () => {
    expect(checkGuards({ escalations: 2, teacherTokens: 1, studentTokens: 100 }, limits)).toBeUndefined();
    expect(checkGuards({ escalations: 3, teacherTokens: 1, studentTokens: 100 }, limits)).toBe("max_escalations");
  });
  it("refuses once teacher tokens exceed the cap times student tokens", () => {
    expect(checkGuards({ escalations: 1, teacherTokens: 40, studentTokens: 100 }, limits)).toBeUndefined();
    expect(checkGuards({ escalations: 1, teacherTokens: 41, studentTokens: 100 }, limits)).toBe("spend_ratio");
  });
});
