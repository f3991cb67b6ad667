import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { fauxText, fauxToolCall } from "@x/brain-faux";
import type { TraceFrame } from "@x/llm-types";
import { describe, expect, it } from "vitest";
import { createOtelTracer } from "../otel";
import { delegate, spy, treeSetup } from "../../test/sub-run-harness";

describe("sub-run traces", () => {
  it("the child's run span sits under the parent's tool-call span, in frames and in OpenTelemetry", async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const otel = createOtelTracer(provider.getTracer("x-sub-run-test"));
    const read = spy("read", { permission: "auto" });
    const frames: TraceFrame[] = [];
    const { runner } = treeSetup(
      {
        boss: [fauxToolCall("delegate", { task: "read it" }), fauxText("done")],
        kid: [fauxToolCall("read", { path: "a" }), fauxText("read")],
        cls: () => fauxText("<block>no</block>"),
      },
      { tracer: { frame: (frame) => (frames.push(frame), otel.frame(frame)) } },
    );
    const traced = await runner.runTask({ objective: "go", tools: [delegate([read.tool])], sessionId: "s1" });
    expect(traced.status).toBe("completed");
    const toolStart = frames.find((f) => f.name === "tool_call" && f.phase === "start" && f.runId === traced.runId)!;
    const childRun = frames.find((f) => f.name === "run" && f.phase === "start" && f.runId !== traced.runId)!;
    expect(childRun.parentSpanId).toBe(toolStart.spanId);
    expect(childRun.data).toMatchObject({ parentRunId: traced.runId, depth: 1, model: "kid" });
    expect(childRun.sessionId).toBe("s1");

    const spans = exporter.getFinishedSpans();
    const runs = spans.filter((s) => s.name === "invoke_agent x.runner");
    expect(runs).toHaveLength(2);
    const top = runs.find((s) => s.attributes["x.run.id"] === traced.runId)!;
    const child = runs.find((s) => s.attributes["x.run.id"] !== traced.runId)!;
    const delegateSpan = spans.find((s) => s.name === "execute_tool delegate")!;
    expect(child.parentSpanContext?.spanId).toBe(delegateSpan.spanContext().spanId);
    expect(child.spanContext().traceId).toBe(top.spanContext().traceId);
    expect(child.attributes).toMatchObject({
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.request.model": "kid",
      "x.parent_run.id": traced.runId,
      "x.sub_run.depth": 1,
    });
    const classify = spans.filter((s) => s.name === "classify read").map((s) => s.attributes["x.auto_mode.station"]);
    expect(classify).toEqual(["leg", "ancestor"]);
    // The child's tool span is under the child's own turn, inside the child's run.
    const readSpan = spans.find((s) => s.name === "execute_tool read")!;
    const childTurn = spans.find((s) => s.spanContext().spanId === readSpan.parentSpanContext?.spanId)!;
    expect(childTurn.parentSpanContext?.spanId).toBe(child.spanContext().spanId);
  });
});
