import {
  createFauxBrain,
  fauxError,
  fauxModel,
  fauxText,
  fauxToolCall,
  type FauxResponder,
  type FauxScriptItem,
} from "@x/brain-faux";
import type { EngineNotice, TraceFrame } from "@x/llm-types";
import { describe, expect, it } from "vitest";
import { classifierSeatModel } from "@x/classifier-ladder";
import { createMemoryParkLedger } from "../effects/park-ledgers";
import { createRunner } from "../entry/runner";
import type { RunEvent } from "../vocabulary/events";
import type { RunnerDeps } from "../vocabulary/types";
import { fakeClock, main, recorder, texts } from "../../test/harness";

const cls = fauxModel({
  id: "cls",
  api: "faux-cls",
  baseUrl: "faux://cls",
  cost: { input: 0.1, output: 0.4, cacheRead: 0, cacheWrite: 0 },
});
const ALLOW = fauxText("<block>no</block>", { usage: { input: 300, output: 5 } });
const BLOCK = (why: string) =>
  fauxText(`<block>yes</block><reason>${why}</reason>`, { usage: { input: 300, output: 12 } });

function autoSetup(
  mainScript: FauxScriptItem[] | FauxResponder,
  clsScript: FauxScriptItem[] | FauxResponder,
  deps: Partial<RunnerDeps> = {},
) {
  const brain = createFauxBrain(mainScript);
  const classifier = createFauxBrain(clsScript, { api: "faux-cls" });
  const notices: EngineNotice[] = [];
  const frames: TraceFrame[] = [];
  const runner = createRunner({
    brains: [brain, classifier],
    models: { main, cls },
    roles: { default: "main", classifier: "cls" },
    clock: fakeClock(),
    onNotice: (n) => notices.push(n),
    tracer: { frame: (f) => frames.push(f) },
    ...deps,
  });
  return { runner, brain, classifier, notices, frames };
}

describe("auto mode", () => {
  it("allow ⇒ the call runs; the classifier sees the full history and its usage is counted", async () => {
    const { tool, calls } = recorder("shell");
    const { runner, classifier, frames } = autoSetup(
      [fauxToolCall("shell", { text: "ls" }), fauxText("listed")],
      [ALLOW],
    );
    const stream = runner.streamTask({
      objective: "list the files please",
      tools: [tool],
      permissions: { shell: "auto" },
    });
    const events: RunEvent[] = [];
    for await (const e of stream) events.push(e);
    const result = await stream.result;
    expect(result.status).toBe("completed");
    expect(calls).toEqual([{ text: "ls" }]);
    expect(classifier.calls).toHaveLength(1);
    const asked = JSON.stringify(classifier.calls[0]!.context.messages);
    expect(asked).toContain("list the files please");
    expect(asked).toContain("shell");
    expect(result.stats.classifierCalls).toBe(1);
    expect(result.stats.modelCalls).toBe(2);
    expect(result.stats.tokens).toBeGreaterThanOrEqual(305);
    expect(events.find((e) => e.type === "verdict")).toMatchObject({ outcome: { verdict: "allow", model: "cls" } });
    expect(frames.filter((f) => f.name === "auto_mode.classified")).toEqual([
      expect.objectContaining({
        phase: "point",
        runId: result.runId,
        data: expect.objectContaining({ verdict: "allow", model: "cls", toolName: "shell", calls: 1 }),
      }),
    ]);
    expect(frames.filter((f) => f.name === "classification").map((f) => f.phase)).toEqual(["start", "end"]);
  });

  it("block ⇒ an error result with the reason; the model reacts", async () => {
    const { tool, calls } = recorder("shell");
    const { runner, frames } = autoSetup(
      [fauxToolCall("shell", { text: "rm -rf /" }), fauxText("ok, I will not")],
      [BLOCK("destroys the disk")],
    );
    const result = await runner.runTask({ objective: "clean up", tools: [tool], defaultPermission: "auto" });
    expect(calls).toEqual([]);
    expect(result.status).toBe("completed");
    expect(result.messages[2]).toMatchObject({
      role: "toolResult",
      isError: true,
      details: { error: "blocked", reason: "destroys the disk" },
    });
    // Both frames a tracer sees for the classification name why it blocked.
    expect(frames.find((f) => f.name === "auto_mode.classified")?.data).toMatchObject({
      verdict: "block",
      reason: "destroys the disk",
    });
    expect(frames.find((f) => f.name === "classification" && f.phase === "end")?.data).toMatchObject({
      verdict: "block",
      reason: "destroys the disk",
    });
  });

  it("the denial limit with no live approver stops the run blocked", async () => {
    const { tool, calls } = recorder("shell");
    const { runner, classifier } = autoSetup(
      ({ callIndex }) => fauxToolCall("shell", { text: `try ${callIndex}` }),
      () => BLOCK("no"),
      { autoMode: { maxConsecutiveDenials: 3 } },
    );
    const result = await runner.runTask({ objective: "x", tools: [tool], defaultPermission: "auto", maxTurns: 20 });
    expect(result).toMatchObject({ status: "blocked", terminal: { code: "denial_limit", cause: "classifier" } });
    expect(classifier.calls).toHaveLength(3);
    expect(calls).toEqual([]);
  });

  it("the denial limit with a live approver hands the call to a person, who can let it run", async () => {
    const { tool, calls } = recorder("shell");
    const kinds: string[] = [];
    const { runner } = autoSetup(
      [fauxToolCall("shell", { text: "a" }), fauxToolCall("shell", { text: "b" }), fauxText("done")],
      () => BLOCK("risky"),
      {
        autoMode: { maxConsecutiveDenials: 2 },
        approver: async (req) => {
          kinds.push(req.kind);
          return { decision: "approve" };
        },
      },
    );
    const result = await runner.runTask({ objective: "x", tools: [tool], defaultPermission: "auto" });
    expect(kinds).toEqual(["denial_limit"]);
    expect(calls).toEqual([{ text: "b" }]);
    expect(result.status).toBe("completed");
    expect(result.stats.humanReview.gates).toEqual([{ kind: "denial_limit", waitMs: 0, decision: "approve" }]);
  });

  it("unavailable ⇒ the ask path: with no approver the run parks; `classifier.unavailable` is announced", async () => {
    const { tool, calls } = recorder("shell");
    const { runner, notices } = autoSetup([fauxToolCall("shell", { text: "a" })], [fauxError("auth", "bad key")], {
      autoMode: { classifierFallback: "none" },
    });
    const result = await runner.runTask({ objective: "x", tools: [tool], defaultPermission: "auto" });
    expect(result.status).toBe("parked");
    expect(result.parked?.pending).toMatchObject({ kind: "auto_unavailable", toolName: "shell" });
    expect(calls).toEqual([]);
    expect(notices.find((n) => n.code === "classifier.unavailable")).toMatchObject({
      audience: "user",
      detail: { cause: "error", disposition: "asked" },
    });
  });

  it("a failed classifier call's usage is counted in the run's stats, like any failed model call", async () => {
    const { tool } = recorder("shell");
    const { runner } = autoSetup(
      [
        fauxToolCall("shell", { text: "a" }, { usage: { input: 10, output: 2 } }),
        { ...ALLOW, usage: { input: 7, output: 1 } },
        fauxText("done", { usage: { input: 20, output: 3 } }),
      ],
      [{ ...fauxError("overloaded", "busy"), usage: { input: 300, output: 0 } }],
    );
    const result = await runner.runTask({ objective: "x", tools: [tool], defaultPermission: "auto" });
    expect(result.status).toBe("completed");
    // 12 + 23 from the agent's turns, 300 from the failed seat call, 8 from the main rung's allow.
    expect(result.stats).toMatchObject({ tokens: 12 + 23 + 300 + 8, classifierCalls: 2, modelCalls: 2 });
  });

  it("unavailable falls back to the main model first (classifierFallback: main)", async () => {
    const { tool, calls } = recorder("shell");
    const { runner, brain, notices } = autoSetup(
      [fauxToolCall("shell", { text: "a" }), ALLOW, fauxText("done")],
      [fauxError("auth", "bad key")],
    );
    const result = await runner.runTask({ objective: "x", tools: [tool], defaultPermission: "auto" });
    expect(result.status).toBe("completed");
    expect(calls).toHaveLength(1);
    expect(brain.calls).toHaveLength(3);
    expect(notices.map((n) => n.code)).toContain("classifier.fallback");
  });

  it("parse_error ⇒ the ask path, to the live approver", async () => {
    const { tool, calls } = recorder("shell");
    const kinds: string[] = [];
    const { runner } = autoSetup(
      [fauxToolCall("shell", { text: "a" }), fauxText("done")],
      [fauxText("<block>yes</block> <block>no</block>")],
      {
        approver: async (req) => {
          kinds.push(req.kind);
          return { decision: "deny", reason: "nope" };
        },
      },
    );
    const result = await runner.runTask({ objective: "x", tools: [tool], defaultPermission: "auto" });
    expect(kinds).toEqual(["auto_parse_error"]);
    expect(calls).toEqual([]);
    expect(texts(result.messages)[2]).toContain("nope");
  });

  it("no classifier role: the one resolver picks the seat, `classifier.role_defaulted` announced once", async () => {
    const { tool } = recorder("shell");
    const brain = createFauxBrain([
      fauxToolCall("shell", { text: "a" }),
      ALLOW,
      fauxToolCall("shell", { text: "b" }),
      ALLOW,
      fauxText("done"),
    ]);
    const notices: EngineNotice[] = [];
    const runner = createRunner({ brains: [brain], models: { main }, onNotice: (n) => notices.push(n) });
    const result = await runner.runTask({ objective: "x", tools: [tool], defaultPermission: "auto" });
    expect(result.status).toBe("completed");
    expect(notices.filter((n) => n.code === "classifier.role_defaulted")).toEqual([
      expect.objectContaining({ detail: expect.objectContaining({ reason: "main_only" }), runId: result.runId }),
    ]);
  });

  it("classifier.seat.one_resolver — the runner classifies on the model classifierSeatModel names", async () => {
    const { tool } = recorder("shell");
    const cheap = fauxModel({ id: "cheap", api: "faux-cls", baseUrl: "faux://cheap" });
    const routing = { models: { main, cheap }, tiers: { pro: "main", flash: "cheap" } };
    const seat = classifierSeatModel({ deps: routing, main });
    expect(seat).toMatchObject({ model: { id: "cheap" }, defaulted: "tier_below_main" });
    const brain = createFauxBrain([fauxToolCall("shell", { text: "a" }), fauxText("done")]);
    const classifier = createFauxBrain([ALLOW], { api: "faux-cls" });
    const runner = createRunner({ brains: [brain, classifier], ...routing, clock: fakeClock() });
    const stream = runner.streamTask({ objective: "x", tools: [tool], defaultPermission: "auto", model: "main" });
    const verdicts: string[] = [];
    for await (const event of stream) if (event.type === "verdict") verdicts.push(event.outcome.model ?? "");
    expect((await stream.result).status).toBe("completed");
    expect(classifier.calls.map((call) => call.model.id)).toEqual([seat.model.id]);
    expect(verdicts).toEqual([seat.model.id]);
  });

  it("a resumed run does not announce the classifier's arming notices again", async () => {
    const { tool, calls } = recorder("shell");
    const brain = createFauxBrain([
      fauxToolCall("shell", { text: "a" }),
      fauxError("auth", "bad key"),
      fauxToolCall("shell", { text: "b" }),
      ALLOW,
      fauxText("done"),
    ]);
    const notices: EngineNotice[] = [];
    const runner = createRunner({
      brains: [brain],
      models: { main },
      onNotice: (n) => notices.push(n),
      autoMode: { classifierFallback: "none" },
      parkKey: "a-test-key-of-enough-length-000",
      parkLedger: createMemoryParkLedger(),
    });
    const parked = await runner.runTask({ objective: "x", tools: [tool], defaultPermission: "auto" });
    expect(parked.status).toBe("parked");
    const resumed = await runner.resume(parked.parked, { decision: "approve" }, { tools: [tool] });
    expect(resumed.status).toBe("completed");
    expect(calls).toEqual([{ text: "a" }, { text: "b" }]);
    expect(notices.filter((n) => n.code === "classifier.role_defaulted")).toHaveLength(1);
  });

  it("a bad auto-mode knob ends the run failed/config_invalid instead of throwing; the call does not run", async () => {
    for (const autoMode of [{ timeoutMs: -1 }, { maxConsecutiveDenials: 0 }, { maxTotalDenials: 1.5 }]) {
      const { tool, calls } = recorder("shell");
      const { runner } = autoSetup([fauxToolCall("shell", { text: "a" })], [ALLOW], { autoMode });
      const result = await runner.runTask({ objective: "x", tools: [tool], defaultPermission: "auto" });
      expect(result, JSON.stringify(autoMode)).toMatchObject({
        status: "failed",
        terminal: { code: "config_invalid", cause: "config" },
      });
      expect(calls).toEqual([]);
      // The history stays well-formed: the gated call is answered, as not run.
      expect(result.messages.at(-1)).toMatchObject({
        role: "toolResult",
        toolName: "shell",
        isError: true,
        details: { error: "not_run" },
      });
    }
  });

  it("budget checked before every classifier call: a spent run never asks it, and the call does not run", async () => {
    const { tool, calls } = recorder("shell");
    const { runner, classifier } = autoSetup(
      [fauxToolCall("shell", { text: "a" }, { usage: { input: 60, output: 10 } })],
      [ALLOW],
    );
    const result = await runner.runTask({
      objective: "x",
      tools: [tool],
      defaultPermission: "auto",
      budget: { tokens: 70 },
    });
    expect(result).toMatchObject({ status: "budget_exhausted", terminal: { code: "budget_tokens", cause: "budget" } });
    expect(classifier.calls).toHaveLength(0);
    expect(calls).toEqual([]);
    expect(result.messages.at(-1)).toMatchObject({ role: "toolResult", isError: true, details: { error: "not_run" } });
  });

  it("a classification whose re-ask would overrun the budget is cut first; the run ends budget_exhausted", async () => {
    const { tool, calls } = recorder("shell");
    const { runner, classifier, notices } = autoSetup(
      [fauxToolCall("shell", { text: "a" }, { usage: { input: 60, output: 10 } })],
      [fauxText("Let me think.", { usage: { input: 30, output: 10 } }), ALLOW],
    );
    const result = await runner.runTask({
      objective: "x",
      tools: [tool],
      defaultPermission: "auto",
      budget: { tokens: 100 },
      model: "main",
    });
    // Nobody is asked, so the user is not told a person will decide.
    expect(notices.map((n) => n.code)).not.toContain("classifier.unavailable");
    expect(result).toMatchObject({ status: "budget_exhausted", terminal: { code: "budget_tokens" } });
    expect(classifier.calls).toHaveLength(1);
    expect(calls).toEqual([]);
    expect(result.stats).toMatchObject({ tokens: 110, classifierCalls: 1, modelCalls: 1 });
  });

  it("a misspelt auto-mode knob is refused when the runner is made, not read as the default", () => {
    for (const autoMode of [{ classifierFalback: "none" }, { maxConsecutiveDenial: 1 }, "none"]) {
      expect(() => autoSetup([], [], { autoMode: autoMode as never }), JSON.stringify(autoMode)).toThrow(
        expect.objectContaining({ code: "config.auto_mode_invalid" }),
      );
    }
  });

  it("an unknown classifierFallback is refused when the runner is made, not at the first gated call", () => {
    for (const classifierFallback of ["sometimes", "MAIN", 1, null]) {
      expect(() => autoSetup([], [], { autoMode: { classifierFallback: classifierFallback as never } })).toThrow(
        expect.objectContaining({ code: "config.auto_mode_classifier_fallback_invalid" }),
      );
    }
  });

  /** A classifier brain that judges its own route broken (no key for its provider), and counts calls. */
  function keylessClassifier() {
    const brain = createFauxBrain([ALLOW], { api: "faux-cls" });
    return Object.assign(brain, {
      judgeRoute: (model: { id: string }) =>
        model.id === "cls" ? { broken: true, cause: "missing_api_key" } : { broken: false },
    });
  }

  /** A runner over `brains` with the classifier role on `cls`, collecting its notices. */
  function routeRunner(brains: RunnerDeps["brains"], deps: Partial<RunnerDeps> = {}) {
    const notices: EngineNotice[] = [];
    const runner = createRunner({
      brains,
      models: { main, cls },
      roles: { default: "main", classifier: "cls" },
      clock: fakeClock(),
      onNotice: (n) => notices.push(n),
      ...deps,
    });
    return { runner, notices };
  }

  it("route pre-flight: a classifier provider with no key swaps to the main model, fallback_to_primary", async () => {
    const { tool, calls } = recorder("shell");
    const brain = createFauxBrain([fauxToolCall("shell", { text: "ls" }), ALLOW, fauxText("listed")]);
    const classifier = keylessClassifier();
    const { runner, notices } = routeRunner([brain, classifier]);
    const result = await runner.runTask({ objective: "list files", tools: [tool], permissions: { shell: "auto" } });
    expect(result.status).toBe("completed");
    expect(calls).toEqual([{ text: "ls" }]);
    expect(classifier.calls).toHaveLength(0);
    // The main model classified: its brain got the classifier's request between the two agent turns.
    expect(brain.calls).toHaveLength(3);
    expect(notices.filter((n) => n.code === "route.fallback_to_primary")).toEqual([
      expect.objectContaining({
        audience: "operator",
        detail: { seat: "classifier", from: "cls", to: "main", cause: "missing_api_key" },
      }),
    ]);
    expect(notices.map((n) => n.code)).not.toContain("classifier.fallback");
  });

  it("route pre-flight, classifierFallback none: route.classifier_unroutable, and no gated call runs", async () => {
    const { tool, calls } = recorder("shell");
    const classifier = keylessClassifier();
    const { runner, notices } = routeRunner(
      [createFauxBrain([fauxToolCall("shell", { text: "rm -rf build" })]), classifier],
      { autoMode: { classifierFallback: "none" } },
    );
    const result = await runner.runTask({ objective: "clean", tools: [tool], permissions: { shell: "auto" } });
    expect(result.status).toBe("parked");
    expect(calls).toEqual([]);
    expect(classifier.calls).toHaveLength(0);
    expect(notices.filter((n) => n.code === "route.classifier_unroutable")).toEqual([
      expect.objectContaining({ detail: { seat: "classifier", model: "cls", cause: "missing_api_key" } }),
    ]);
    expect(notices.map((n) => n.code)).not.toContain("route.fallback_to_primary");
  });

  it("route pre-flight: no brain for the classifier's wire is a broken route", async () => {
    const { tool, calls } = recorder("shell");
    // The classifier given whole as the role, not from the catalog: createRunner refuses a catalog model
    // without a brain (config.no_brain), so this run-time path is what a model named outside it meets.
    const { runner, notices } = routeRunner(
      [createFauxBrain([fauxToolCall("shell", { text: "ls" }), ALLOW, fauxText("ok")])],
      { models: { main }, roles: { default: "main", classifier: cls } },
    );
    await runner.runTask({ objective: "list", tools: [tool], permissions: { shell: "auto" } });
    expect(calls).toEqual([{ text: "ls" }]);
    expect(notices.find((n) => n.code === "route.fallback_to_primary")?.detail).toMatchObject({ cause: "no_brain" });
  });

  it("a run parked by auto mode resumes with the denial counters it had", async () => {
    const { tool, calls } = recorder("shell");
    const { runner } = autoSetup(
      [
        fauxToolCall("shell", { text: "a" }),
        fauxToolCall("shell", { text: "b" }),
        fauxToolCall("shell", { text: "c" }),
        fauxText("done"),
      ],
      [BLOCK("first"), fauxError("auth"), BLOCK("second")],
      {
        autoMode: { classifierFallback: "none", maxConsecutiveDenials: 2 },
        parkKey: "a-test-key-of-enough-length-000",
        parkLedger: createMemoryParkLedger(),
      },
    );
    const parked = await runner.runTask({ objective: "x", tools: [tool], defaultPermission: "auto" });
    expect(parked.status).toBe("parked");
    expect(parked.parked!.state.denials).toMatchObject({ consecutiveBlocks: 1, totalBlocks: 1 });
    const resumed = await runner.resume(parked.parked, { decision: "approve" }, { tools: [tool] });
    expect(calls).toEqual([{ text: "b" }]);
    // The restored streak (1 block) plus this run's next block reaches the limit of 2.
    expect(resumed).toMatchObject({ status: "blocked", terminal: { code: "denial_limit" } });
  });
});
