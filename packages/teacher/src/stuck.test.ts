import { describe, expect, it } from "vitest";
import { StuckTracker } from "./stuck";

const fail = (toolName: string, text = "boom") => ({ toolName, isError: true, text });
const ok = (toolName: string) => ({ toolName, isError: false, text: "fine" });

describe("StuckTracker", () => {
  it("suspects a stall at the threshold of consecutive same-tool failures", () => {
    const t = new StuckTracker({ threshold: 3, hardOverride: 5 });
    expect(t.record(fail("edit")).kind).toBe("ok");
    expect(t.record(fail("edit")).kind).toBe("ok");
    expect(t.record(fail("edit"))).toEqual({ kind: "suspected", tool: "edit", consecutive: 3, cumulative: 3 });
    // Asked once per streak: the fourth failure alone is no new suspicion.
    expect(t.record(fail("edit")).kind).toBe("ok");
  });

  it("a success or another tool's failure breaks the streak", () => {
    const t = new StuckTracker({ threshold: 3, hardOverride: 10 });
    t.record(fail("edit"));
    t.record(fail("edit"));
    t.record(ok("edit"));
    t.record(fail("edit"));
    t.record(fail("read"));
    expect(t.record(fail("edit")).kind).toBe("ok");
  });

  it("forces escalation at the cumulative override even without a streak", () => {
    const t = new StuckTracker({ threshold: 3, hardOverride: 5 });
    const signals = [];
    for (let i = 0; i < 5; i++) {
      signals.push(t.record(fail("edit")).kind);
      signals.push(t.record(ok("read")).kind);
    }
    expect(signals.filter((k) => k !== "ok")).toEqual(["hard"]);
  });

  it("keeps cumulative counts across a streak reset", () => {
    const t = new StuckTracker({ threshold: 3, hardOverride: 4 });
    t.record(fail("edit"));
    t.record(fail("edit"));
    t.record(fail("edit"));
    t.resetStreak();
    expect(t.record(fail("edit"))).toEqual({ kind: "hard", tool: "edit", consecutive: 1, cumulative: 4 });
  });

  it("summarises recent results, newest last, errors marked", () => {
    const t = new StuckTracker({ threshold: 3, hardOverride: 5 });
    t.record(ok("read"));
    t.record(fail("edit", "no such\nfile"));
    expect(t.recent()).toEqual(["read → ok: fine", "edit → ERROR: no such file"]);
  });
});
