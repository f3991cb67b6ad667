import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { createFauxBrain, fauxModel, fauxText, fauxToolCall } from "@x/brain-faux";
import { describe, expect, it } from "vitest";
import { COST_ATTRIBUTE, createOtelTracer } from "./otel";
import { createRunner } from "./entry/runner";
import { main, recorder } from "../test/harness";

describe("OpenTelemetry adapter", () => {
  it("maps run, turn, model call, tool call and classification to nested spans with GenAI attributes", async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const cls = fauxModel({ id: "cls", api: "faux-cls", baseUrl: "faux://cls" });
    const { tool } = recorder("shell");
    const runner = createRunner({
      brains: [
        createFauxBrain([
          fauxToolCall("shell", { text: "ls" }, { usage: { input: 100, output: 10 } }),
          fauxText("done", { usage: { input: 130, output: 3 } }),
        ]),
        createFauxBrain([fauxText("<block>no</block>", { usage: { input: 50, output: 4 } })], { api: "faux-cls" }),
      ],
      models: { main, cls },
      roles: { default: "main", classifier: "cls" },
      tracer: createOtelTracer(provider.getTracer("x-runner-test")),
    });
    const result = await runner.runTask({
      objective: "list",
      tools: [tool],
      defaultPermission: "auto",
      sessionId: "sess",
    });
    expect(result.status).toBe("completed");
    const spans = exporter.getFinishedSpans();
    const byName = (prefix: string) => spans.filter((s) => s.name.startsWith(prefix));
    const [run] = byName("invoke_agent");
    const turns = byName("turn");
    const chats = byName("chat main");
    const [toolSpan] = byName("execute_tool");
    const [classify] = byName("classify");
    expect(run).toBeDefined();
    expect(turns).toHaveLength(2);
    expect(chats).toHaveLength(2);
    const parentOf = (span: (typeof spans)[number]) => span.parentSpanContext?.spanId;
    expect(turns.every((t) => parentOf(t) === run!.spanContext().spanId)).toBe(true);
    expect(parentOf(chats[0]!)).toBe(turns.find((t) => t.attributes["x.turn.number"] === 1)!.spanContext().spanId);
    expect(parentOf(toolSpan!)).toBe(turns.find((t) => t.attributes["x.turn.number"] === 1)!.spanContext().spanId);
    expect(chats[0]!.attributes).toMatchObject({
      "gen_ai.operation.name": "chat",
      "gen_ai.request.model": "main",
      "gen_ai.provider.name": "faux",
      "gen_ai.usage.input_tokens": 100,
      "gen_ai.usage.output_tokens": 10,
      [COST_ATTRIBUTE]: 140,
      "gen_ai.conversation.id": "sess",
    });
    expect(toolSpan!.attributes).toMatchObject({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "shell",
    });
    expect(classify!.attributes).toMatchObject({
      "gen_ai.request.model": "cls",
      "gen_ai.usage.input_tokens": 50,
      "x.auto_mode.verdict": "allow",
      "x.auto_mode.source": "classifier",
      "x.auto_mode.attempt": 1,
    });
    expect(run!.attributes).toMatchObject({
      "gen_ai.operation.name": "invoke_agent",
      "x.run.status": "completed",
      "gen_ai.usage.output_tokens": 17,
    });
    expect(run!.events.map((e) => e.name)).toContain("auto_mode.classified");
  });

  it("a host rule's block names the rule and its reason on the classification span", async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const { tool, calls } = recorder("shell");
    const runner = createRunner({
      brains: [createFauxBrain([fauxToolCall("shell", { text: "rm -rf /" }), fauxText("could not")])],
      models: { main },
      tracer: createOtelTracer(provider.getTracer("t")),
    });
    const result = await runner.runTask({
      objective: "clean up",
      tools: [tool],
      autoModeRules: [
        { id: "no-rm", effect: "deny", tool: "shell", args: [{ arg: "text", pattern: "rm -rf" }], reason: "no wipes" },
      ],
    });
    expect(result.status).toBe("completed");
    expect(calls).toEqual([]);
    const [classify] = exporter.getFinishedSpans().filter((s) => s.name.startsWith("classify"));
    expect(classify!.attributes).toMatchObject({
      "x.auto_mode.verdict": "block",
      "x.auto_mode.source": "rule",
      "x.auto_mode.rule.id": "no-rm",
      "x.auto_mode.reason": "no wipes",
    });
  });

  it("a failed model call marks its span as an error with error.type", async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const runner = createRunner({
      brains: [createFauxBrain([{ content: [], end: { type: "error", errorKind: "auth" } }])],
      models: { main },
      tracer: createOtelTracer(provider.getTracer("t")),
    });
    const result = await runner.runTask({ objective: "x" });
    expect(result.status).toBe("failed");
    const chat = exporter.getFinishedSpans().find((s) => s.name === "chat main")!;
    expect(chat.attributes["error.type"]).toBe("auth");
    expect(chat.status.code).toBe(2);
  });

  it("a run that ends on a throw closes its inner spans (marked as errors) instead of leaking them", async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const { tool } = recorder("shell");
    const runner = createRunner({
      brains: [createFauxBrain([fauxToolCall("shell", { text: "ls" })])],
      models: { main },
      // A bad knob throws from inside the turn, when the first gated call arms auto mode.
      autoMode: { timeoutMs: -1 },
      tracer: createOtelTracer(provider.getTracer("t")),
    });
    const result = await runner.runTask({ objective: "x", tools: [tool], defaultPermission: "auto" });
    expect(result.terminal.code).toBe("config_invalid");
    const spans = exporter.getFinishedSpans();
    expect(spans.find((s) => s.name === "turn 1")?.attributes).toMatchObject({ "x.terminal.code": "thrown" });
    expect(spans.find((s) => s.name === "invoke_agent x.runner")?.status.code).toBe(2);
  });

  it("a span its tracer never saw end is closed, marked, when its run ends", () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const tracer = createOtelTracer(provider.getTracer("t"));
    tracer.frame({ name: "run", phase: "start", spanId: "r:1", runId: "r", at: 1, data: {} });
    tracer.frame({
      name: "turn",
      phase: "start",
      spanId: "r:2",
      parentSpanId: "r:1",
      runId: "r",
      at: 2,
      data: { turn: 1 },
    });
    tracer.frame({ name: "run", phase: "start", spanId: "s:1", runId: "s", at: 2, data: {} });
    tracer.frame({
      name: "turn",
      phase: "start",
      spanId: "s:2",
      parentSpanId: "s:1",
      runId: "s",
      at: 2,
      data: { turn: 1 },
    });
    tracer.frame({ name: "run", phase: "end", spanId: "r:1", runId: "r", at: 3, data: { status: "failed" } });
    const finished = exporter.getFinishedSpans();
    expect(finished.map((s) => s.name).sort()).toEqual(["invoke_agent x.runner", "turn 1"]);
    expect(finished.find((s) => s.name === "turn 1")?.status).toMatchObject({
      code: 2,
      message: "the run ended before this span did",
    });
  });
});
