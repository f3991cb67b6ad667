import { createFauxBrain, fauxDelay, fauxError, fauxModel, fauxText, type FauxResponse } from "@x/brain-faux";
import type { Brain } from "@x/llm-types";
import { describe, expect, it } from "vitest";
import { createRunner } from "../entry/runner";
import type { RunEvent } from "../vocabulary/events";
import { main, recorder } from "../../test/harness";

const cls = fauxModel({ id: "cls", api: "faux-cls", baseUrl: "faux://cls" });
const ALLOW = fauxText("<block>no</block>", { usage: { input: 300, output: 5 } });
const BLOCK = fauxText("<block>yes</block><reason>it deletes the build</reason>", { usage: { input: 300, output: 9 } });

/** A turn of two `shell` calls, streamed a few characters at a time with a pause between deltas. */
const twoCalls: FauxResponse = {
  content: [
    { type: "text", text: "Two commands, then I am done with this step of the task." },
    { type: "toolCall", name: "shell", arguments: { text: "rm -rf build" }, id: "call-a" },
    { type: "toolCall", name: "shell", arguments: { text: "ls" }, id: "call-b" },
  ],
};

/**
 * The main brain tells whether its turn is still streaming; the classifier brain records, for each
 * call, whether the main turn was still streaming then, and how many classifications were in flight.
 */
function watched(mainScript: Array<FauxResponse>, verdicts: (text: string) => FauxResponse) {
  let streaming = false;
  let inFlight = 0;
  const seen: Array<{ whileStreaming: boolean; inFlight: number; aborted: () => boolean }> = [];
  const mainBrain = createFauxBrain(mainScript, { chunkSize: 3, chunkDelayMs: 2 });
  const watchedMain: Brain = {
    api: mainBrain.api,
    stream(model, context, request) {
      streaming = true;
      const stream = mainBrain.stream(model, context, request);
      void stream.result().finally(() => (streaming = false));
      return stream;
    },
  };
  const clsBrain = createFauxBrain(
    ({ context }) => {
      const last = JSON.stringify(context.messages.at(-1));
      return fauxDelay(60, verdicts(last));
    },
    { api: "faux-cls" },
  );
  const watchedCls: Brain = {
    api: "faux-cls",
    stream(model, context, request) {
      inFlight += 1;
      const signal = request?.signal;
      seen.push({ whileStreaming: streaming, inFlight, aborted: () => signal?.aborted === true });
      const stream = clsBrain.stream(model, context, request);
      void stream.result().finally(() => (inFlight -= 1));
      return stream;
    },
  };
  const runner = createRunner({
    brains: [watchedMain, watchedCls],
    models: { main, cls },
    roles: { default: "main", classifier: "cls" },
  });
  return { runner, seen };
}

/** The classifier judges the LAST call its request shows (the earlier ones are the agent's history). */
const byCommand = (last: string) => ([...last.matchAll(/rm -rf build|\bls\b/g)].at(-1)?.[0] === "ls" ? ALLOW : BLOCK);

describe("the classifier off the critical path", () => {
  it("each gated call is classified while the model still streams, the calls of a turn at once", async () => {
    const { tool, calls } = recorder("shell");
    const { runner, seen } = watched([twoCalls, fauxText("done")], byCommand);
    const events: RunEvent[] = [];
    const stream = runner.streamTask({ objective: "clean up", tools: [tool], defaultPermission: "auto" });
    for await (const event of stream) events.push(event);
    const result = await stream.result;
    expect(result.status).toBe("completed");
    expect(seen).toHaveLength(2);
    // The first call's classification started before the model's turn ended, and both ran at once.
    expect(seen[0]!.whileStreaming).toBe(true);
    expect(Math.max(...seen.map((s) => s.inFlight))).toBe(2);
    // Nothing ran on an early verdict: the blocked call never ran, the allowed one did, and each
    // verdict is told after its call, in call order.
    expect(calls).toEqual([{ text: "ls" }]);
    const order = events.flatMap((e) =>
      e.type === "tool_call" || e.type === "verdict" ? [`${e.type}:${e.toolCall.id}`] : [],
    );
    expect(order).toEqual(["tool_call:call-a", "verdict:call-a", "tool_call:call-b", "verdict:call-b"]);
    expect(result.stats.classifierCalls).toBe(2);
  });

  it("a turn that fails after its calls streamed cancels their classifications and counts what they used", async () => {
    const { tool, calls } = recorder("shell");
    const failing: FauxResponse = { ...fauxError("overloaded", "the provider dropped it"), content: twoCalls.content };
    const { runner, seen } = watched([failing, fauxText("gave up")], () => ALLOW);
    const result = await runner.runTask({ objective: "clean up", tools: [tool], defaultPermission: "auto" });
    expect(calls).toEqual([]);
    expect(result.output).toBe("gave up");
    // Classified early, then cancelled with the failed turn: nothing ran on them.
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((s) => s.aborted())).toBe(true);
    expect(result.stats.classifierCalls).toBe(seen.length);
  });
});
