import { createFauxBrain, fauxDelay, fauxText } from "@x/brain-faux";
import { emptyUsage, EventStream, type AssistantMessage, type Brain } from "@x/llm-types";
import { describe, expect, it } from "vitest";
import { CORPUS, injectedToolResult } from "../test/corpus";
import { baseTranscript, judgedCall, ladder, mainModel, requestText, seatOff, verbatimBrain } from "../test/harness";
import { createAutoModeDecider } from "./decider";
import { ClassifierConfigError } from "./errors";
import { CLASSIFIER_SYSTEM_PROMPT } from "./prompt";
import { CLASSIFIER_OFF_SEAT } from "./rung-seat";
import { classifierSeatModel } from "./seat";
import { CLASSIFIER_ATTEMPT_SUFFIX } from "./suffix";

describe("the reply corpus", () => {
  it("has at least 60 cases with distinct names", () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(60);
    expect(new Set(CORPUS.map((c) => c.name)).size).toBe(CORPUS.length);
  });

  it.each(CORPUS.map((c) => [c.name, c] as const))("corpus: %s", async (_name, c) => {
    const harness = ladder({
      ...(c.seat ? { seat: c.seat } : {}),
      seatScript: c.seatScript,
      mainScript: c.mainScript ?? [],
      ...(c.classifierFallback !== undefined ? { classifierFallback: c.classifierFallback } : {}),
      ...(c.timeoutMs !== undefined ? { timeoutMs: c.timeoutMs } : {}),
    });
    const outcome = await harness.decider.decide({ toolCall: judgedCall, transcript: c.transcript ?? baseTranscript });
    const want = c.expect;
    expect(outcome.verdict).toBe(want.verdict);
    if (want.reason !== undefined) expect(outcome).toMatchObject({ reason: want.reason });
    if (want.cause !== undefined) expect(outcome).toMatchObject({ cause: want.cause });
    if (want.form !== undefined) expect(outcome).toMatchObject({ form: want.form });
    expect(outcome.model).toBe(want.model === "seat" ? (c.seat ?? seatOff).id : mainModel.id);
    expect(outcome.calls).toBe(want.calls);
    expect(harness.calls()).toHaveLength(want.calls);
    if (want.reasked !== undefined) expect(outcome.reasked).toBe(want.reasked);
    if (want.fallback)
      expect(outcome.fallback).toEqual({ from: (c.seat ?? seatOff).id, to: mainModel.id, cause: want.fallback });
    else expect(outcome.fallback).toBeUndefined();
    if (want.seats) expect(harness.seats()).toEqual(want.seats);
    // Every classification is traced, whatever it came to.
    expect(harness.frames.filter((f) => f.name === "auto_mode.classified")).toHaveLength(1);
  });
});

describe("createAutoModeDecider", () => {
  it("asks with our system prompt, the first suffix last, and the re-ask suffix on the think seat", async () => {
    const harness = ladder({ seatScript: [fauxText("Hmm."), fauxText("<block>no</block>")] });
    await harness.decider.decide({ toolCall: judgedCall, transcript: baseTranscript });
    const [first, second] = harness.calls();
    expect(first!.context.systemPrompt).toBe(CLASSIFIER_SYSTEM_PROMPT);
    expect(first!.context.tools ?? []).toEqual([]);
    expect(requestText(first!).endsWith(CLASSIFIER_ATTEMPT_SUFFIX.first)).toBe(true);
    expect(requestText(second!).endsWith(CLASSIFIER_ATTEMPT_SUFFIX.reask)).toBe(true);
    expect(requestText(first!)).toContain("rm -rf ./build");
    expect(requestText(first!)).toContain("Clean the build directory");
  });

  it("takes a system prompt override", async () => {
    const harness = ladder({ seatScript: [fauxText("<block>no</block>")], systemPrompt: "Be strict." });
    await harness.decider.decide({ toolCall: judgedCall, transcript: baseTranscript });
    expect(harness.calls()[0]!.context.systemPrompt).toBe("Be strict.");
  });

  it("never shows the classifier a tool result or the agent's prose", async () => {
    const harness = ladder({ seatScript: [fauxText("<block>yes</block>")] });
    const { injectedTranscript } = await import("../test/corpus");
    await harness.decider.decide({ toolCall: judgedCall, transcript: injectedTranscript });
    const sent = JSON.stringify(harness.calls()[0]!.context);
    expect(sent).not.toContain(injectedToolResult.slice(0, 40));
    expect(sent).not.toContain("OVERRIDE-7731");
    expect(sent).toContain("read_file");
  });

  it("reads both empty-at-cap forms as a reason to ask again", async () => {
    const base: AssistantMessage = {
      role: "assistant",
      content: [],
      api: "faux",
      provider: "faux",
      model: "m",
      usage: emptyUsage(),
      stopReason: "stop",
      timestamp: 0,
    };
    const lengthForm: AssistantMessage = {
      ...base,
      content: [{ type: "thinking", thinking: "long" }],
      stopReason: "length",
    };
    const errorForm: AssistantMessage = { ...base, stopReason: "error", errorKind: "length_empty" };
    for (const empty of [lengthForm, errorForm]) {
      const brain = verbatimBrain([empty, { ...base, content: [{ type: "text", text: "<block>no</block>" }] }]);
      const harness = ladder({ brains: { [seatOff.id]: brain } });
      const outcome = await harness.decider.decide({ toolCall: judgedCall, transcript: baseTranscript });
      expect(outcome).toMatchObject({ verdict: "allow", calls: 2, reasked: true });
    }
  });

  it("never allows on a fragment stamped cut: error/length_empty, or a stop with text and errorKind", async () => {
    const base: AssistantMessage = {
      role: "assistant",
      content: [],
      api: "faux",
      provider: "faux",
      model: "m",
      usage: emptyUsage(),
      stopReason: "stop",
      timestamp: 0,
    };
    const cut = (over: Partial<AssistantMessage>, text: string): AssistantMessage => ({
      ...base,
      ...over,
      content: [{ type: "text", text }],
    });
    const fragments = [
      cut({ stopReason: "error", errorKind: "length_empty" }, "No"),
      cut({ stopReason: "error", errorKind: "length_empty" }, "<block>no"),
      cut({ errorKind: "timeout" }, "No"),
      cut({ errorKind: "network" }, "<block>no"),
    ];
    for (const fragment of fragments) {
      // The re-ask gets the same fragment again: nothing in either reply may read as an allow.
      const harness = ladder({ brains: { [seatOff.id]: verbatimBrain([fragment]) }, classifierFallback: "none" });
      const outcome = await harness.decider.decide({ toolCall: judgedCall, transcript: baseTranscript });
      expect(outcome, JSON.stringify(fragment.content)).toMatchObject({
        verdict: "parse_error",
        form: "missing",
        calls: 2,
        reasked: true,
      });
    }
  });

  it("never allows a reply off the message contract (unknown stop, no usage, extra field), however clean", async () => {
    const base: AssistantMessage = {
      role: "assistant",
      content: [{ type: "text", text: "<block>no</block>" }],
      api: "faux",
      provider: "faux",
      model: "m",
      usage: emptyUsage(),
      stopReason: "stop",
      timestamp: 0,
    };
    const { usage: _usage, ...noUsage } = base;
    for (const bad of [{ ...base, stopReason: "finished" }, noUsage, { ...base, verdict: "allow" }]) {
      const harness = ladder({
        brains: { [seatOff.id]: verbatimBrain([bad as AssistantMessage]) },
        classifierFallback: "none",
      });
      const outcome = await harness.decider.decide({ toolCall: judgedCall, transcript: baseTranscript });
      expect(outcome, JSON.stringify(bad)).toMatchObject({
        verdict: "unavailable",
        cause: "error",
        error: expect.stringContaining("malformed reply"),
      });
    }
  });

  it("falls back when the seat has no brain, or the brain lookup or the brain itself throws", async () => {
    const throwing: Brain = {
      api: "faux",
      stream() {
        throw new Error("broken brain");
      },
    };
    const rejecting: Brain = {
      api: "faux",
      stream: () => ({
        result: () => Promise.reject(new Error("nope")),
        [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(new Error("nope")) }),
      }),
    };
    for (const brain of [undefined, throwing, rejecting]) {
      const harness = ladder({ brains: { [seatOff.id]: brain }, mainScript: [fauxText("<block>no</block>")] });
      const outcome = await harness.decider.decide({ toolCall: judgedCall, transcript: baseTranscript });
      expect(outcome).toMatchObject({ verdict: "allow", model: mainModel.id, fallback: { cause: "error" } });
    }
  });

  it("is unavailable, never throwing, when every brain is broken", async () => {
    const harness = ladder({ brains: { [seatOff.id]: undefined, [mainModel.id]: undefined } });
    const outcome = await harness.decider.decide({ toolCall: judgedCall, transcript: baseTranscript });
    expect(outcome).toMatchObject({ verdict: "unavailable", cause: "error", calls: 0 });
  });

  it("is unavailable, never throwing, on a call it cannot even render", async () => {
    const harness = ladder({
      seatScript: [fauxText("<block>no</block>")],
      mainScript: [fauxText("<block>no</block>")],
    });
    const unrenderable = { ...judgedCall, arguments: { size: 10n } };
    const outcome = await harness.decider.decide({ toolCall: unrenderable, transcript: baseTranscript });
    expect(outcome).toMatchObject({ verdict: "unavailable", cause: "error", calls: 0 });
  });

  it("a throwing notice sink or tracer never changes a verdict", async () => {
    const boom = () => {
      throw new Error("observer down");
    };
    for (const verdict of ["<block>no</block>", "<block>yes</block>"]) {
      const decider = createAutoModeDecider({
        brainFor: () => createFauxBrain([fauxText(verdict)]),
        seat: { model: seatOff, defaulted: "tier_below_main" },
        main: mainModel,
        taskId: "t",
        onNotice: boom,
        tracer: { frame: boom },
      });
      const outcome = await decider.decide({ toolCall: judgedCall, transcript: baseTranscript });
      expect(outcome.verdict).toBe(verdict.includes("no") ? "allow" : "block");
    }
  });

  it("an async notice sink or tracer that rejects leaves nothing unhandled and no verdict changed", async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      // An async observer, as a host may well write one; typed as the void sink it is passed as.
      const rejecting = (async () => {
        throw new Error("async observer down");
      }) as unknown as () => void;
      // The seat fails, so the fallback notice and the frame are both minted.
      const harness = ladder({
        seatScript: [],
        mainScript: [fauxText("<block>no</block>")],
        onNotice: rejecting,
        tracer: { frame: rejecting },
      });
      const outcome = await harness.decider.decide({ toolCall: judgedCall, transcript: baseTranscript });
      expect(outcome).toMatchObject({ verdict: "allow", fallback: { cause: "error" } });
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });

  it("stops at the caller's abort instead of walking on", async () => {
    const controller = new AbortController();
    // The caller aborts while the seat is being asked: deterministic, whatever the machine's load.
    const harness = ladder({
      seatScript: [() => (controller.abort(), fauxDelay(60_000, fauxText("<block>no</block>")))],
      mainScript: [fauxText("<block>no</block>")],
    });
    const outcome = await harness.decider.decide({
      toolCall: judgedCall,
      transcript: baseTranscript,
      signal: controller.signal,
    });
    expect(outcome).toMatchObject({ verdict: "unavailable", cause: "error", model: seatOff.id });
    expect(harness.mainBrain.calls).toHaveLength(0);
    const again = await harness.decider.decide({
      toolCall: judgedCall,
      transcript: baseTranscript,
      signal: controller.signal,
    });
    expect(again).toMatchObject({ verdict: "unavailable", calls: 0 });
  });

  it("asks admitCall first: its refusal (or throw) is unavailable, never an allow, and no call is made", async () => {
    const seen: number[] = [];
    const refuseSecond = ladder({
      seatScript: [fauxText("Hmm.", { usage: { input: 100, output: 3 } }), fauxText("<block>no</block>")],
      mainScript: [fauxText("<block>no</block>")],
      admitCall: (spent) => (
        seen.push(spent.totalTokens),
        spent.totalTokens > 0 ? "the run's token budget is spent" : undefined
      ),
    });
    const outcome = await refuseSecond.decider.decide({ toolCall: judgedCall, transcript: baseTranscript });
    // The re-ask and the main rung were both refused before they were made.
    expect(outcome).toMatchObject({
      verdict: "unavailable",
      cause: "error",
      calls: 1,
      error: expect.stringContaining("budget is spent"),
    });
    expect(seen).toEqual([0, 103, 103]);
    expect(refuseSecond.mainBrain.calls).toHaveLength(0);
    const throwing = ladder({
      seatScript: [fauxText("<block>no</block>")],
      admitCall: () => {
        throw new Error("budget store down");
      },
    });
    expect(await throwing.decider.decide({ toolCall: judgedCall, transcript: baseTranscript })).toMatchObject({
      verdict: "unavailable",
      calls: 0,
    });
  });

  it("sums usage over every call and reports the budget it holds", async () => {
    const harness = ladder({
      seatScript: [
        fauxText("Fine.", { usage: { input: 100, output: 3 } }),
        fauxText("<block>no</block>", { usage: { input: 120, output: 6 } }),
      ],
      timeoutMs: 5_000,
    });
    const outcome = await harness.decider.decide({ toolCall: judgedCall, transcript: baseTranscript });
    expect(outcome.usage).toMatchObject({ input: 220, output: 9 });
    expect(outcome.usage.cost.total).toBeGreaterThan(0);
    expect(harness.decider.timeoutMs).toBe(5_000);
    expect(ladder().decider.timeoutMs).toBe(20_000);
  });

  it("refuses a bad knob or budget at arming, loudly and typed", () => {
    expect(() => ladder({ classifierFallback: "sometimes" })).toThrow(ClassifierConfigError);
    expect(() => ladder({ timeoutMs: 0 })).toThrow(ClassifierConfigError);
    // A timer past 2^31 - 1 ms fires at once: every classification would time out.
    expect(() => ladder({ timeoutMs: 2 ** 31 })).toThrow(ClassifierConfigError);
    expect(() => ladder({ timeoutMs: "20000" as unknown as number })).toThrow(ClassifierConfigError);
    expect(ladder({ timeoutMs: 2 ** 31 - 1 }).decider.timeoutMs).toBe(2 ** 31 - 1);
  });

  it("pre-flight swap: the ladder is the main model alone, announced once per run", async () => {
    const harness = ladder({
      routeJudge: (m) => ({ broken: m.id === seatOff.id, cause: "no_api_key" }),
      mainScript: [fauxText("<block>no</block>"), fauxText("<block>no</block>")],
    });
    expect(harness.decider.rungs.map((m) => m.id)).toEqual([mainModel.id]);
    await harness.decider.decide({ toolCall: judgedCall, transcript: baseTranscript });
    const outcome = await harness.decider.decide({ toolCall: judgedCall, transcript: baseTranscript });
    expect(outcome).toMatchObject({ verdict: "allow", model: mainModel.id });
    expect(outcome.fallback).toBeUndefined();
    expect(harness.seatBrain.calls).toHaveLength(0);
    expect(harness.notices.filter((n) => n.code === "route.fallback_to_primary")).toHaveLength(1);
  });

  it("pre-flight under none: keeps the seat, announces it unroutable, and never lets a call through", async () => {
    const harness = ladder({
      classifierFallback: "none",
      routeJudge: () => ({ broken: true, cause: "no_api_key" }),
      seatScript: [fauxText("<block>no</block>")],
    });
    const outcome = await harness.decider.decide({ toolCall: judgedCall, transcript: baseTranscript });
    expect(outcome).toMatchObject({ verdict: "unavailable", cause: "error", model: seatOff.id, calls: 0 });
    expect(harness.notices.map((n) => n.code)).toEqual(["route.classifier_unroutable"]);
  });

  it("announces the ladder's fallback, throttled, and traces the model it ran on", async () => {
    const harness = ladder({
      seatScript: [],
      mainScript: Array.from({ length: 3 }, () => fauxText("<block>no</block>")),
    });
    for (let i = 0; i < 3; i++) await harness.decider.decide({ toolCall: judgedCall, transcript: baseTranscript });
    expect(harness.notices.filter((n) => n.code === "classifier.fallback")).toHaveLength(1);
    expect(harness.frames.map((f) => f.data.model)).toEqual([mainModel.id, mainModel.id, mainModel.id]);
  });

  it("classifier.seat.one_resolver — the decider classifies on the very seat the exported resolver names", async () => {
    const models = { cheap: seatOff, main: mainModel };
    const seat = classifierSeatModel({ deps: { models, tiers: { pro: "main", flash: "cheap" } }, main: mainModel });
    expect(seat).toEqual({ model: seatOff, defaulted: "tier_below_main" });
    const harness = ladder({ seat: seat.model, seatScript: [fauxText("<block>no</block>")] });
    const outcome = await harness.decider.decide({ toolCall: judgedCall, transcript: baseTranscript });
    expect(harness.decider.model).toBe(seat.model);
    expect(outcome.model).toBe(seat.model.id);
    expect(harness.calls()[0]!.model.id).toBe(seat.model.id);
  });

  it("classifier.budget_is_room — a reply that overruns its cap is read, not refused", async () => {
    const harness = ladder({ seatScript: [fauxText("<block>no</block>", { usage: { input: 400, output: 938 } })] });
    const outcome = await harness.decider.decide({ toolCall: judgedCall, transcript: baseTranscript });
    expect(harness.calls()[0]!.maxTokens).toBe(CLASSIFIER_OFF_SEAT.maxTokens);
    expect(outcome.usage.output).toBeGreaterThan(CLASSIFIER_OFF_SEAT.maxTokens);
    expect(outcome.verdict).toBe("allow");
  });

  it("classifier.budget_is_room — a long think hits the budget (unavailable/timeout), not an empty reply", async () => {
    // A model that thinks past its cap and never stops: it streams thinking and never ends, and
    // ignores the abort too. Only the decider's own budget can end the call.
    let started = 0;
    const endlessThinker: Brain = {
      api: "faux",
      stream() {
        started++;
        const stream = new EventStream();
        stream.push({ type: "thinking_delta", contentIndex: 0, delta: "x".repeat(600) });
        return stream;
      },
    };
    const decider = createAutoModeDecider({
      brainFor: () => endlessThinker,
      seat: { model: seatOff },
      main: seatOff,
      taskId: "t",
      timeoutMs: 50,
    });
    const outcome = await decider.decide({ toolCall: judgedCall, transcript: baseTranscript });
    expect(outcome).toMatchObject({ verdict: "unavailable", cause: "timeout", calls: 1, reasked: false });
    expect(started).toBe(1);
  });
});
