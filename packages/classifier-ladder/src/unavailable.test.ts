import type { EngineNotice } from "@x/llm-types";
import { describe, expect, it } from "vitest";
import { classifierUnavailableNotice, classifierUnavailableSeat } from "./unavailable";

describe("classifierUnavailableNotice", () => {
  it("is a user notice naming the station, the disposition and, on a timeout, the budget", () => {
    const notice = classifierUnavailableNotice({
      toolName: "bash",
      toolCallId: "c1",
      cause: "timeout",
      disposition: "asked",
      station: "leg",
      budgetMs: 20_000,
      sessionId: "s",
      runId: "r",
    });
    expect(notice).toMatchObject({ code: "classifier.unavailable", audience: "user", sessionId: "s", runId: "r" });
    expect(notice.detail).toEqual({
      toolName: "bash",
      toolCallId: "c1",
      cause: "timeout",
      disposition: "asked",
      station: "leg",
      budgetMs: 20_000,
      sessionId: "s",
      runId: "r",
    });
    expect(notice.message).toContain("20000 ms");
    expect(notice.message).toContain("this run's approval seat");
  });

  it("names the knob alone when no budget is stated, and the ancestor's seat for that station", () => {
    const notice = classifierUnavailableNotice({
      toolName: "bash",
      toolCallId: "c1",
      cause: "timeout",
      disposition: "denied",
      station: "ancestor",
    });
    expect(notice.message).toContain("timeoutMs");
    expect(notice.message).not.toMatch(/\d+ ms/);
    expect(notice.message).toContain("parent run's");
    expect(notice.message).toContain("refused");
  });

  it("says nothing about a budget for an error", () => {
    const notice = classifierUnavailableNotice({
      toolName: "bash",
      toolCallId: "c1",
      cause: "error",
      disposition: "asked",
      station: "leg",
      budgetMs: 5,
    });
    expect(notice.message).not.toContain("budget");
  });
});

describe("classifierUnavailableSeat", () => {
  it("asks when a person is reachable and denies when not, announcing each fork", () => {
    const notices: EngineNotice[] = [];
    const asked = classifierUnavailableSeat({
      station: "leg",
      approvalSeat: true,
      budgetMs: 100,
      onNotice: (n) => notices.push(n),
    });
    const denied = classifierUnavailableSeat({ station: "leg", approvalSeat: false, onNotice: (n) => notices.push(n) });
    expect(asked.fork({ toolName: "a", toolCallId: "1", cause: "timeout" })).toBe("asked");
    expect(denied.fork({ toolName: "b", toolCallId: "2", cause: "error" })).toBe("denied");
    expect(notices.map((n) => n.detail.disposition)).toEqual(["asked", "denied"]);
    expect(notices[0]!.detail.budgetMs).toBe(100);
  });

  it("a throwing sink does not change the disposition", () => {
    const seat = classifierUnavailableSeat({
      station: "ancestor",
      approvalSeat: true,
      onNotice: () => {
        throw new Error("down");
      },
    });
    expect(seat.fork({ toolName: "a", toolCallId: "1", cause: "error" })).toBe("asked");
  });
});
