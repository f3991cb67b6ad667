import { fauxToolCall } from "@x/brain-faux";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../vocabulary/define-tool";
import type { RunEvent } from "../vocabulary/events";
import { setup } from "../../test/harness";

describe("tool progress", () => {
  it("a tool's progress reports stream as tool_progress events between its tool_call and tool_result", async () => {
    const build = defineTool({
      name: "build",
      description: "builds",
      input: z.object({}),
      execute: (_args, ctx) => {
        ctx.progress({ progress: 1, total: 2, message: "compiling" });
        // Tool code is outside data: a non-number total and a non-string message are dropped.
        ctx.progress({ progress: 2, total: Number.NaN, message: 7 as unknown as string });
        return "built";
      },
    });
    const { runner } = setup([fauxToolCall("build", {})]);
    const stream = runner.streamTask({ objective: "build it", tools: [build] });
    const events: RunEvent[] = [];
    for await (const event of stream) events.push(event);
    const kinds = events.map((e) => e.type).filter((t) => t.startsWith("tool_"));
    expect(kinds).toEqual(["tool_call", "tool_progress", "tool_progress", "tool_result"]);
    const progress = events.filter((e) => e.type === "tool_progress");
    expect(progress).toEqual([
      {
        type: "tool_progress",
        toolCall: expect.objectContaining({ name: "build" }),
        progress: 1,
        total: 2,
        message: "compiling",
      },
      { type: "tool_progress", toolCall: expect.objectContaining({ name: "build" }), progress: 2 },
    ]);
  });
});
