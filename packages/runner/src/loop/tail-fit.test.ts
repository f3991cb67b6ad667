import { estimateContextTokens } from "@x/brain-kit";
import { createFauxBrain, fauxError, fauxModel, fauxText, type FauxResponse } from "@x/brain-faux";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { fakeClock } from "../../test/harness";
import { createRunner } from "../entry/runner";
import { defineTool } from "../vocabulary/define-tool";
import type { RunEvent } from "../vocabulary/events";

const WINDOW = 8_000;
const pages = (n: number) => `PAGE-${n}-HEAD ${"lorem ipsum ".repeat(6_000)} PAGE-${n}-TAIL`;

/** One turn reading `calls` pages at once (each 72 KB), then the answer; a request over the window is refused. */
function setup(calls: number) {
  const read = defineTool({
    name: "read",
    description: "reads one page",
    input: z.object({ n: z.number() }),
    readOnly: true,
    execute: ({ n }) => pages(n),
  });
  let overflowed = 0;
  const turn: FauxResponse = {
    content: Array.from({ length: calls }, (_, n) => ({ type: "toolCall" as const, name: "read", arguments: { n } })),
  };
  const brain = createFauxBrain(({ model, context, callIndex }) => {
    if (estimateContextTokens(context) > model.contextWindow) {
      overflowed += 1;
      return fauxError("context_overflow", "prompt is too long");
    }
    return callIndex === 0 ? turn : fauxText("read them all");
  });
  const runner = createRunner({
    brains: [brain],
    models: { main: fauxModel({ id: "main", contextWindow: WINDOW, maxTokens: 500 }) },
    clock: fakeClock(),
  });
  return { runner, brain, read, overflowed: () => overflowed };
}

describe("a turn too large for the window by itself", () => {
  it("six large results in one turn: each is cut to one level, the run completes, nothing overflows", async () => {
    const { runner, brain, read, overflowed } = setup(6);
    const events: RunEvent[] = [];
    const stream = runner.streamTask({ objective: "read six pages", tools: [read] });
    for await (const event of stream) events.push(event);
    const result = await stream.result;
    expect(result.status).toBe("completed");
    expect(overflowed()).toBe(0);
    const sent = brain.calls.at(-1)!.context;
    expect(estimateContextTokens(sent)).toBeLessThanOrEqual(WINDOW - 500);
    const seen = sent.messages.filter((m) => m.role === "toolResult");
    expect(seen).toHaveLength(6);
    for (const [n, message] of seen.entries()) {
      const text = (message.content[0] as { text: string }).text;
      // Head and tail of every page are still there; every page is cut alike.
      expect(text.startsWith(`PAGE-${n}-HEAD`) && text.endsWith(`PAGE-${n}-TAIL`)).toBe(true);
      expect(text.length).toBe((seen[0]!.content[0] as { text: string }).text.length);
    }
    const cut = events.find((e) => e.type === "notice" && e.notice.code === "run.turn_cut");
    expect(cut).toBeDefined();
    // The host keeps every page whole.
    const kept = result.messages.filter((m) => m.role === "toolResult");
    expect(kept.map((m) => (m.content[0] as { text: string }).text)).toEqual([0, 1, 2, 3, 4, 5].map(pages));
    expect(result.stats.usage.totalTokens).toBeGreaterThan(0);
  });

  it("a turn that fits is sent as it is: no cut, no notice", async () => {
    const { runner, brain, read } = setup(1);
    const result = await runner.runTask({ objective: "read one page", tools: [read] });
    expect(result.status).toBe("completed");
    const seen = brain.calls.at(-1)!.context.messages.find((m) => m.role === "toolResult")!;
    // The window's own cap (a quarter of 7,500 tokens × 4 characters), no tighter.
    expect((seen.content[0] as { text: string }).text.length).toBe(7_500);
  });
});
