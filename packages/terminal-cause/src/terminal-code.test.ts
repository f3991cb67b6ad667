import { ERROR_KINDS, type AssistantMessage } from "@x/llm-types";
import { describe, expect, it } from "vitest";
import { TERMINAL_CODES, isNormalTerminalCode, terminalCodeOf, type TerminalTurn } from "./terminal-code";

describe("terminalCodeOf", () => {
  it("maps the normal endings", () => {
    expect(terminalCodeOf({ stopReason: "stop" })).toBe("completed");
    expect(terminalCodeOf({ stopReason: "toolUse" })).toBe("tool_use");
    expect(terminalCodeOf({ stopReason: "length" })).toBe("length");
  });

  it("maps every error kind to the code of the same name", () => {
    for (const kind of ERROR_KINDS)
      expect(terminalCodeOf({ stopReason: kind === "aborted" ? "aborted" : "error", errorKind: kind })).toBe(kind);
  });

  it("an abort wins over any other stamp", () => {
    expect(terminalCodeOf({ stopReason: "aborted", errorKind: "timeout" })).toBe("aborted");
    expect(terminalCodeOf({ stopReason: "aborted" })).toBe("aborted");
    expect(terminalCodeOf({ stopReason: "error", errorKind: "aborted" })).toBe("aborted");
  });

  it("a kept partial is stream_cut whatever its cause", () => {
    expect(terminalCodeOf({ stopReason: "stop", partialFinalized: true })).toBe("stream_cut");
    expect(terminalCodeOf({ stopReason: "stop", partialFinalized: true, errorKind: "timeout" })).toBe("stream_cut");
  });

  it("an error turn with no kind reads as provider", () => {
    expect(
      terminalCodeOf({ stopReason: "error", errorMessage: "something" } as TerminalTurn &
        Pick<AssistantMessage, "errorMessage">),
    ).toBe("provider");
  });

  it("the code set is closed: unique, and every code is what terminalCodeOf returns for some turn", () => {
    expect(new Set(TERMINAL_CODES).size).toBe(TERMINAL_CODES.length);
    const turns: TerminalTurn[] = [
      { stopReason: "stop" },
      { stopReason: "toolUse" },
      { stopReason: "length" },
      { stopReason: "stop", partialFinalized: true, errorKind: "network" },
      ...ERROR_KINDS.map((kind): TerminalTurn => ({
        stopReason: kind === "aborted" ? "aborted" : "error",
        errorKind: kind,
      })),
    ];
    const reached = new Set(turns.map(terminalCodeOf));
    expect([...reached].sort()).toEqual([...TERMINAL_CODES].sort());
  });

  it("isNormalTerminalCode is true only for completed and tool_use", () => {
    expect(TERMINAL_CODES.filter(isNormalTerminalCode)).toEqual(["completed", "tool_use"]);
  });
});
