import { estimateContextTokens } from "@x/brain-kit";
import { fauxError, fauxModel, fauxText, fauxToolCall, createFauxBrain } from "@x/brain-faux";
import type { Message } from "@x/llm-types";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { COMPACTION_HEADER } from "../state/compaction-view";
import { defineTool } from "../vocabulary/define-tool";
import { defineSubRunTool } from "./sub-run-tool";
import type { RunEvent } from "../vocabulary/events";
import { createMemoryParkLedger } from "../effects/park-ledgers";
import { createRunner } from "../entry/runner";
import { RunnerConfigError } from "../vocabulary/config-error";
import type { RunnerDeps } from "../vocabulary/types";
import type { CompactedHistory } from "../vocabulary/compaction-state";
import { fakeClock } from "../../test/harness";
import { OBJECTIVE, codingTools, longRunBrains, longRunModels, pairsValid } from "../../test/long-run";

function longRunner(turns: number, window: number, deps: Partial<RunnerDeps> = {}, overflowAt?: number[]) {
  const run = longRunBrains(turns, overflowAt ? { overflowAt } : {});
  const models = longRunModels(window);
  const runner = createRunner({
    brains: run.brains,
    models,
    roles: { default: "main", summarize: "sum" },
    clock: fakeClock(),
    ...deps,
  });
  return { runner, ...run };
}

async function collect(runner: ReturnType<typeof createRunner>, spec: Parameters<typeof runner.streamTask>[0]) {
  const stream = runner.streamTask(spec);
  const events: RunEvent[] = [];
  for await (const event of stream) events.push(event);
  return { events, result: await stream.result };
}

const userText = (m: Message) => (m.role === "user" && typeof m.content === "string" ? m.content : "");

describe("compaction", () => {
  it("200 turns, small window, completed: no request overflows, pairs stay valid, the objective verbatim", async () => {
    const { runner, overflows, mainContexts } = longRunner(200, 12_000);
    const { result, events } = await collect(runner, { objective: OBJECTIVE, tools: codingTools(), maxTurns: 250 });
    expect(result.status).toBe("completed");
    expect(result.stats.turns).toBe(201);
    expect(overflows()).toBe(0);
    expect(result.compaction!.compactions).toBeGreaterThan(3);
    expect(events.filter((e) => e.type === "compaction")).toHaveLength(result.compaction!.compactions);
    for (const context of mainContexts) {
      expect(pairsValid(context.messages)).toBe(true);
      expect(context.messages.some((m) => userText(m).includes(OBJECTIVE))).toBe(true);
    }
    // The run's messages are whole: compaction changes only what the model is sent.
    expect(result.messages.filter((m) => m.role === "toolResult")).toHaveLength(200);
    expect(userText(result.messages[0]!)).toBe(OBJECTIVE);
    expect(result.compaction!.cacheStableShare).toBeGreaterThan(0.9);
    expect(result.compaction!.costMicroUsd).toBeGreaterThan(0);
  });

  it("a session continued with result.messages: the next run sizes the history it sends, no overflow", async () => {
    // Three runs of one session on a 12k window, each appending the last run's messages whole.
    let history: Message[] = [];
    for (const [run, objective] of ["Fix the date parser.", "Now add tests for it.", "Document it."].entries()) {
      const { runner, overflows, mainContexts } = longRunner(run === 0 ? 60 : 4, 12_000);
      const result = await runner.runTask({ objective, history, tools: codingTools(), maxTurns: 80 });
      expect(result.status, `run ${run + 1}`).toBe("completed");
      expect(overflows(), `run ${run + 1}`).toBe(0);
      if (run > 0) {
        // The history was over the window before the run's first call: it compacted first.
        expect(result.compaction!.compactions, `run ${run + 1}`).toBeGreaterThan(0);
        expect(mainContexts[0]!.messages.some((m) => userText(m).includes(COMPACTION_HEADER))).toBe(true);
      }
      history = [...history, ...result.messages];
    }
    expect(history.filter((m) => m.role === "toolResult")).toHaveLength(68);
  });

  it("a session handing each run the last one's compaction view: its first request extends the last one", async () => {
    let history: Message[] = [];
    let view: CompactedHistory | undefined;
    let lastRequest: Message[] | undefined;
    for (const [run, objective] of ["Fix the date parser.", "Now add tests for it.", "Document it."].entries()) {
      const { runner, overflows, mainContexts } = longRunner(run === 0 ? 60 : 4, 12_000);
      const result = await runner.runTask({
        objective,
        history,
        tools: codingTools(),
        maxTurns: 80,
        ...(view ? { compactedHistory: view } : {}),
      });
      expect([result.status, overflows()], `run ${run + 1}`).toEqual(["completed", 0]);
      if (lastRequest) {
        // The prefix a provider cached for the last run's last request is this run's first prefix.
        const first = mainContexts[0]!.messages;
        expect(first.slice(0, lastRequest.length), `run ${run + 1}`).toEqual(lastRequest);
        expect(result.compaction!.compactions, `run ${run + 1}: nothing summarised twice`).toBe(0);
      }
      view = result.compaction!.view;
      expect(view, `run ${run + 1}`).toBeDefined();
      lastRequest = [...mainContexts.at(-1)!.messages, ...result.messages.slice(-1)];
      history = [...history, ...result.messages];
    }
  });

  it("a compactedHistory past the end of the history is refused, typed, before any call", async () => {
    const { runner, mainContexts } = longRunner(1, 12_000);
    await expect(
      runner.runTask({ objective: "go", history: [], compactedHistory: { cut: 3, summary: "earlier work" } }),
    ).rejects.toMatchObject({ code: "schema_invalid" });
    expect(mainContexts).toHaveLength(0);
  });

  it("between two compactions each request is the previous one plus what was appended (prefix-stable)", async () => {
    const { runner, mainContexts } = longRunner(60, 12_000);
    const { result } = await collect(runner, { objective: OBJECTIVE, tools: codingTools(), maxTurns: 100 });
    expect(result.compaction!.compactions).toBeGreaterThan(0);
    let extends_ = 0;
    let restarts = 0;
    for (let i = 1; i < mainContexts.length; i++) {
      const before = JSON.stringify(mainContexts[i - 1]!.messages);
      const now = JSON.stringify(mainContexts[i]!.messages);
      if (now.startsWith(before.slice(0, -1))) extends_ += 1;
      else restarts += 1;
    }
    expect(restarts).toBe(result.compaction!.compactions);
    expect(extends_).toBe(mainContexts.length - 1 - restarts);
  });

  it("the summary message is marked as the engine's, and the classifier never sees it as the user", async () => {
    const { runner, mainContexts } = longRunner(40, 9_000);
    await collect(runner, { objective: OBJECTIVE, tools: codingTools(), maxTurns: 60 });
    const compacted = mainContexts.at(-1)!.messages[0]!;
    // The engine's frame and summary are `compaction`; the objective quoted inside stays the user's.
    expect(compacted).toMatchObject({
      role: "user",
      provenance: [{ source: "compaction" }, { source: "user", chars: OBJECTIVE.length }, { source: "compaction" }],
    });
    expect(userText(compacted).startsWith(COMPACTION_HEADER)).toBe(true);
    expect(userText(compacted)).toContain(`<user_message>\n${OBJECTIVE}\n</user_message>`);

    // A gated call late in a compacted run: the classifier reads the full transcript, the user's words as <user>.
    const cls = fauxModel({ id: "cls", api: "faux-cls", baseUrl: "faux://cls" });
    const classifier = createFauxBrain([fauxText("<block>no</block>")], { api: "faux-cls" });
    const run = longRunBrains(40, { interject: { callIndex: 30, tool: "deploy" } });
    const deploy = defineTool({ name: "deploy", description: "deploys", input: z.object({}), execute: () => "ok" });
    const gated = createRunner({
      brains: [...run.brains, classifier],
      models: { ...longRunModels(9_000), cls },
      roles: { default: "main", summarize: "sum", classifier: "cls" },
      clock: fakeClock(),
    });
    const result = await gated.runTask({
      objective: OBJECTIVE,
      tools: [...codingTools(), deploy],
      permissions: { deploy: "auto" },
      maxTurns: 60,
    });
    expect(result.compaction!.compactions).toBeGreaterThan(0);
    const prompt = JSON.stringify(classifier.calls[0]!.context.messages);
    expect(prompt).toContain("Fix the failing date parser");
    expect(prompt).not.toContain("Compaction note");
  });

  it("a provider overflow the estimate missed: one compaction and a retry; a second ends the run typed", async () => {
    // The threshold is never reached (1.0, a large window): only the provider's refusal compacts.
    const once = longRunner(30, 60_000, { compaction: { threshold: 1, keepRecent: 0.05 } }, [20]);
    const { result, events } = await collect(once.runner, { objective: OBJECTIVE, tools: codingTools(), maxTurns: 40 });
    expect(result.status).toBe("completed");
    expect(events.filter((e) => e.type === "compaction").map((e) => e.type === "compaction" && e.reason)).toEqual([
      "overflow",
    ]);

    const twice = longRunner(30, 60_000, { compaction: { threshold: 1, keepRecent: 0.05 } }, [20, 21]);
    const failed = await twice.runner.runTask({ objective: OBJECTIVE, tools: codingTools(), maxTurns: 40 });
    expect(failed.status).toBe("failed");
    expect(failed.terminal).toMatchObject({ code: "model_error", errorKind: "context_overflow" });
    expect(failed.compaction!.compactions).toBe(1);
  });

  it("a 2 MB tool result on an 8k window is cut to what the window holds; the run completes", async () => {
    const huge = `HEAD${"0123456789".repeat(200_000)}TAIL`;
    const read = defineTool({ name: "read", description: "reads", input: z.object({}), execute: () => huge });
    const window = 8_000;
    let overflowed = 0;
    const brain = createFauxBrain(({ model, context, callIndex }) => {
      if (estimateContextTokens(context) > model.contextWindow) {
        overflowed += 1;
        return fauxError("context_overflow", "prompt is too long");
      }
      return callIndex === 0 ? fauxToolCall("read", {}) : fauxText("read it");
    });
    const runner = createRunner({
      brains: [brain],
      models: { main: fauxModel({ id: "main", contextWindow: window, maxTokens: 500 }) },
      clock: fakeClock(),
    });
    const result = await runner.runTask({ objective: "read the dump", tools: [read] });
    expect(result.status).toBe("completed");
    expect(overflowed).toBe(0);
    const seen = brain.calls[1]!.context.messages.find((m) => m.role === "toolResult")!;
    const text = (seen.content[0] as { text: string }).text;
    // A quarter of the usable window (7,500 tokens × 4 characters), not the default 40,000.
    expect(text.length).toBeLessThanOrEqual(7_500);
    expect(text.startsWith("HEAD") && text.endsWith("TAIL")).toBe(true);
    expect(estimateContextTokens(brain.calls[1]!.context)).toBeLessThan(window);
    // The run's own message keeps the whole result for the host.
    expect((result.messages[2]!.content as Array<{ text: string }>)[0]!.text).toBe(huge);
  });

  it("a huge tool result is cut head + tail for the model; the run's message keeps it whole; per tool", async () => {
    const huge = `HEAD${"x".repeat(100_000)}TAIL`;
    const dump = defineTool({ name: "dump", description: "dumps", input: z.object({}), execute: () => huge });
    const log = defineTool({ name: "log", description: "logs", input: z.object({}), execute: () => huge });
    const brain = createFauxBrain([fauxToolCall("dump", {}), fauxToolCall("log", {}), fauxText("done")]);
    const runner = createRunner({
      brains: [brain],
      models: { main: fauxModel({ id: "main" }) },
      clock: fakeClock(),
      compaction: { toolResultMaxChars: 2_000, toolResultMaxCharsByTool: { log: 500 } },
    });
    const result = await runner.runTask({ objective: "look", tools: [dump, log] });
    const seen = brain.calls[2]!.context.messages.filter((m) => m.role === "toolResult");
    const [dumpSeen, logSeen] = seen.map((m) => (m.content[0] as { text: string }).text);
    expect(dumpSeen!.length).toBeLessThanOrEqual(2_000);
    expect(dumpSeen!.startsWith("HEAD")).toBe(true);
    expect(dumpSeen!.endsWith("TAIL")).toBe(true);
    expect(dumpSeen).toMatch(/\[… \d+ characters cut from the middle of this tool result/);
    expect(logSeen!.length).toBeLessThanOrEqual(500);
    const kept = result.messages.filter((m) => m.role === "toolResult");
    expect((kept[0]!.content[0] as { text: string }).text).toBe(huge);
  });

  it("survives park and resume: the resumed run's model sees the same summary and cut", async () => {
    const run = longRunBrains(40, { interject: { callIndex: 30, tool: "deploy" } });
    const deploy = defineTool({
      name: "deploy",
      description: "deploys",
      input: z.object({}),
      execute: () => "deployed",
    });
    const deps = {
      models: longRunModels(6_000),
      roles: { default: "main", summarize: "sum" },
      clock: fakeClock(),
      parkKey: "a park key of sixteen bytes or more",
      parkLedger: createMemoryParkLedger(),
    } as const;
    const first = createRunner({ brains: run.brains, ...deps });
    const parked = await first.runTask({
      objective: OBJECTIVE,
      tools: [...codingTools(), deploy],
      permissions: { deploy: "ask" },
      maxTurns: 60,
    });
    expect(parked.status).toBe("parked");
    expect(parked.parked!.state.compaction!.at.length).toBeGreaterThan(0);
    const lastBefore = run.mainContexts.at(-1)!.messages[0]!;

    const later = longRunBrains(0);
    const second = createRunner({ brains: later.brains, ...deps });
    const resumed = await second.resume(
      JSON.parse(JSON.stringify(parked.parked)),
      { decision: "approve" },
      {
        tools: [...codingTools(), deploy],
      },
    );
    expect(resumed.status).toBe("completed");
    const firstAfter = later.mainContexts[0]!.messages;
    expect(firstAfter[0]).toEqual(lastBefore);
    expect(pairsValid(firstAfter)).toBe(true);
    expect(resumed.compaction!.compactions).toBe(parked.compaction!.compactions);
  });

  it("off, or a custom compactor; bad knobs are refused when the runner is made", async () => {
    const off = longRunner(40, 6_000, { compaction: false });
    const failed = await off.runner.runTask({ objective: OBJECTIVE, tools: codingTools(), maxTurns: 60 });
    expect(failed.terminal).toMatchObject({ code: "model_error", errorKind: "context_overflow" });
    expect(failed.compaction).toBeUndefined();

    const folded: number[] = [];
    const custom = longRunner(40, 6_000, {
      compaction: {
        compactor: async (request) => {
          folded.push(request.messages.length);
          return { summary: `host summary after ${request.messages.length} messages` };
        },
      },
    });
    const { result } = await collect(custom.runner, { objective: OBJECTIVE, tools: codingTools(), maxTurns: 60 });
    expect(result.status).toBe("completed");
    expect(folded.length).toBe(result.compaction!.compactions);
    expect(userText(custom.mainContexts.at(-1)!.messages[0]!)).toContain("host summary after");

    expect(() => longRunner(1, 9_000, { compaction: { threshold: 0.3, keepRecent: 0.5 } })).toThrow(RunnerConfigError);
    expect(() => longRunner(1, 9_000, { compaction: { toolResultMaxChars: 10 } })).toThrow(RunnerConfigError);
  });
});

describe("compaction in sub-runs", () => {
  it("a child run compacts on its own window and completes; the parent goes on", async () => {
    const run = longRunBrains(40);
    const boss = fauxModel({ id: "boss", api: "faux-boss", baseUrl: "faux://boss" });
    const bossBrain = createFauxBrain(
      [fauxToolCall("delegate", { task: OBJECTIVE }), fauxText("The helper fixed it.")],
      {
        api: "faux-boss",
      },
    );
    const delegate = defineSubRunTool({
      name: "delegate",
      description: "Hand a task to a helper agent",
      input: z.object({ task: z.string() }),
      task: ({ task }) => ({ objective: task, model: "main", tools: codingTools(), maxTurns: 60 }),
    });
    const runner = createRunner({
      brains: [bossBrain, ...run.brains],
      models: { boss, ...longRunModels(6_000) },
      roles: { default: "boss", summarize: "sum" },
      clock: fakeClock(),
    });
    const result = await runner.runTask({ objective: "get the parser fixed", tools: [delegate] });
    expect(result.status).toBe("completed");
    const child = result.subRuns![0]!.result;
    expect(child.status).toBe("completed");
    expect(child.compaction!.compactions).toBeGreaterThan(0);
    expect(run.overflows()).toBe(0);
  });
});
