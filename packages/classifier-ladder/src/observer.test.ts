import { emptyUsage, type EngineNotice, type TraceFrame } from "@x/llm-types";
import { describe, expect, it } from "vitest";
import { CLASSIFIER_CONTRACT_BROKEN_STREAK, classifierRoundObserver } from "./observer";
import type { AutoModeClassified } from "./outcome";

const base = {
  toolName: "bash",
  toolCallId: "c1",
  calls: 1,
  usage: emptyUsage(),
  wallMs: 5,
  reasked: false,
  model: "cheap",
};
const allow: AutoModeClassified = { ...base, verdict: "allow" };
const missing: AutoModeClassified = { ...base, verdict: "parse_error", form: "missing", calls: 2, reasked: true };
const fellBack: AutoModeClassified = {
  ...base,
  verdict: "allow",
  model: "main",
  calls: 2,
  fallback: { from: "cheap", to: "main", cause: "error" },
};

function harness() {
  const frames: TraceFrame[] = [];
  const notices: EngineNotice[] = [];
  const observe = classifierRoundObserver({
    tracer: { frame: (f) => frames.push(f) },
    onNotice: (n) => notices.push(n),
    taskId: "t1",
    seatModelId: "cheap",
    runId: "r1",
  });
  return { frames, notices, observe };
}

describe("classifierRoundObserver", () => {
  it("emits one auto_mode.classified frame per round naming the model it ran on", () => {
    const { frames, observe } = harness();
    observe(fellBack);
    observe({ ...base, verdict: "unavailable", cause: "timeout", model: "" });
    expect(frames.map((f) => f.name)).toEqual(["auto_mode.classified", "auto_mode.classified"]);
    expect(frames[0]).toMatchObject({
      phase: "point",
      runId: "r1",
      data: { taskId: "t1", verdict: "allow", model: "main", wallMs: 5, fallback: { from: "cheap", to: "main" } },
    });
    expect(frames[1]!.data).toMatchObject({ verdict: "unavailable", cause: "timeout", model: "cheap" });
  });

  it("a block's frame carries its reason; other verdicts carry none", () => {
    const { frames, observe } = harness();
    observe({ ...base, verdict: "block", reason: "deletes the repo" });
    observe(allow);
    expect(frames[0]!.data).toMatchObject({ verdict: "block", reason: "deletes the repo" });
    expect(frames[1]!.data).not.toHaveProperty("reason");
  });

  it("throttles classifier.fallback to the 1st, 10th, 100th occurrence", () => {
    const { notices, observe } = harness();
    for (let i = 0; i < 100; i++) observe(fellBack);
    const lines = notices.filter((n) => n.code === "classifier.fallback");
    expect(lines.map((n) => n.detail.count)).toEqual([1, 10, 100]);
    expect(lines[0]).toMatchObject({ audience: "operator", detail: { from: "cheap", to: "main", cause: "error" } });
  });

  it("reports classifier.contract_broken when one model misses the format several times in a row", () => {
    const { notices, observe } = harness();
    observe(missing);
    observe(missing);
    observe(allow); // a clean verdict ends the streak
    for (let i = 0; i < CLASSIFIER_CONTRACT_BROKEN_STREAK; i++) observe({ ...allow, reasked: true });
    observe(missing);
    const broken = notices.filter((n) => n.code === "classifier.contract_broken");
    expect(broken).toHaveLength(1);
    expect(broken[0]!.detail).toMatchObject({
      model: "cheap",
      streak: CLASSIFIER_CONTRACT_BROKEN_STREAK,
      last: "reasked",
    });
  });

  it("keeps streaks per model and does not count unavailability", () => {
    const { notices, observe } = harness();
    observe(missing);
    observe({ ...missing, model: "other" });
    observe({ ...base, verdict: "unavailable", cause: "error" });
    observe(missing);
    expect(notices.filter((n) => n.code === "classifier.contract_broken")).toHaveLength(0);
    observe(missing);
    expect(notices.filter((n) => n.code === "classifier.contract_broken")).toHaveLength(1);
  });

  it("a throwing tracer or sink changes nothing and throws nothing", () => {
    const observe = classifierRoundObserver({
      tracer: {
        frame: () => {
          throw new Error("tracer down");
        },
      },
      onNotice: () => {
        throw new Error("sink down");
      },
      taskId: "t",
      seatModelId: "cheap",
    });
    expect(() => {
      for (let i = 0; i < 5; i++) observe(missing);
      observe(fellBack);
    }).not.toThrow();
  });
});
