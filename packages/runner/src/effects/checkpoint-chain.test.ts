import { fauxText, fauxToolCall, type FauxResponder } from "@x/brain-faux";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { recorder, setup } from "../../test/harness";
import { canonicalJson } from "../vocabulary/canonical-json";
import type { RunCheckpoint } from "../vocabulary/checkpoint";
import type { RunCheckpointSegment } from "../vocabulary/checkpoint-segment";
import { defineTool } from "../vocabulary/define-tool";
import { ParkedRunError } from "../vocabulary/parked-run-error";

const KEY = "checkpoint-chain-test-key-0123456789";

/** A tool call per turn until `n` results are in, then a text: a run of n + 1 turns. */
const steps =
  (n: number): FauxResponder =>
  ({ context }) => {
    const results = context.messages.filter((m) => m.role === "toolResult").length;
    return results < n
      ? fauxToolCall("echo", { text: `step ${results + 1}` }, { id: `call-${results + 1}` })
      : fauxText("done");
  };

async function chainedRun(n: number, runId = "run-chain") {
  const { runner } = setup(steps(n), { parkKey: KEY });
  const links: RunCheckpointSegment[] = [];
  const whole: RunCheckpoint[] = [];
  const result = await runner.runTask(
    { objective: `do ${n} steps`, tools: [recorder().tool], runId },
    { onCheckpointSegment: (s) => void links.push(s), onCheckpoint: (c) => void whole.push(c) },
  );
  return { result, links: JSON.parse(JSON.stringify(links)) as RunCheckpointSegment[], whole };
}

const refusal = async (raw: unknown) => {
  const { runner } = setup(steps(3), { parkKey: KEY });
  return runner.continueRun(raw, { tools: [recorder().tool] }).then(
    () => undefined,
    (error: unknown) => error,
  );
};

/** `steps(3)`, but the third answer never comes: `controller` stops the run while it is asked. */
const stoppedAtThirdAnswer =
  (controller: AbortController): FauxResponder =>
  (call) => {
    if (call.callIndex < 2) return steps(3)(call);
    setTimeout(() => controller.abort(), 10);
    return { ...fauxText("never"), delayMs: 60_000 };
  };

/** A call the host stops while it runs: `controller` stops the run, and the call waits for it. */
async function stoppedInside(controller: AbortController, signal: AbortSignal) {
  setTimeout(() => controller.abort(), 10);
  await new Promise((resolve) => signal.addEventListener("abort", resolve));
}

describe("checkpoint chains", () => {
  it("a link holds only what its turn added; the first holds the run so far", async () => {
    const { result, links } = await chainedRun(6);
    expect(result.status).toBe("completed");
    expect(links.map((l) => l.seq)).toEqual(links.map((_, i) => i));
    expect(links[0]!.base?.spec.runId).toBe("run-chain");
    expect(links[0]!.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    // After link 0, each link is one message: the accepted response, then its one result.
    expect(links.slice(1).map((l) => l.messages.length)).toEqual(links.slice(1).map(() => 1));
    expect(links.slice(1).every((l, i) => l.base === undefined && l.prev === links[i]!.signature)).toBe(true);
  });

  it("the sink's text is the link as signed: stored as is and read back, the chain goes on", async () => {
    // Details with keys out of order at every depth: the signed text sorts them, the stored one keeps that.
    const echo = defineTool({
      name: "echo",
      description: "echoes with details",
      input: z.object({ text: z.string() }),
      execute: ({ text }) => ({ content: [{ type: "text" as const, text }], details: { z: { y: 1, x: [2] }, a: 0 } }),
    });
    const { runner } = setup(steps(3), { parkKey: KEY });
    const texts: string[] = [];
    const result = await runner.runTask(
      { objective: "do 3 steps", tools: [echo], runId: "run-text" },
      {
        onCheckpointSegment: (segment, json) => {
          expect(JSON.parse(json)).toEqual(segment);
          texts.push(json);
        },
      },
    );
    expect(result.status).toBe("completed");
    const stored = texts.map((t) => JSON.parse(t) as unknown);
    expect(texts.at(-1)).toContain('"details":{"a":0,"z":{"x":[2],"y":1}}');
    // Cut after the second answer: the continued run verifies every stored text and runs its call.
    const continued = await setup(steps(3), { parkKey: KEY }).runner.continueRun(stored.slice(0, 4), { tools: [echo] });
    expect(continued.status).toBe("completed");
  });

  it("the links joined are the whole checkpoint written at the same point", async () => {
    const { links, whole } = await chainedRun(3);
    expect(links).toHaveLength(whole.length);
    const { runner } = setup(steps(3), { parkKey: KEY });
    for (const [i, checkpoint] of whole.entries()) {
      const continued: RunCheckpointSegment[] = [];
      const viaChain = await runner.continueRun(links.slice(0, i + 1), {
        tools: [recorder().tool],
        onCheckpointSegment: (s) => void continued.push(s),
      });
      const viaWhole = await setup(steps(3), { parkKey: KEY }).runner.continueRun(checkpoint, {
        tools: [recorder().tool],
      });
      const untimed = (r: typeof viaChain) => r.messages.map((m) => canonicalJson({ ...m, timestamp: 0 }));
      expect(untimed(viaChain)).toEqual(untimed(viaWhole));
      // A continued run starts a chain of its own, whose link 0 holds everything so far.
      if (continued[0]) expect(continued[0].base?.history).toEqual(checkpoint.history);
    }
  });

  it("a run continued from a chain cut after an accepted turn runs only that turn's unanswered call", async () => {
    const { links } = await chainedRun(3);
    const { runner, brain } = setup(steps(3), { parkKey: KEY });
    const { tool, calls } = recorder();
    // Links 0..2: the objective, the first answer, its result, the second answer — not its result.
    const result = await runner.continueRun(links.slice(0, 3), { tools: [tool] });
    expect(result.status).toBe("completed");
    expect(calls).toEqual([{ text: "step 2" }, { text: "step 3" }]);
    expect(brain.calls).toHaveLength(2);
  });

  it("results of read-only calls ride with the next accepted answer's link: one link a read-only turn", async () => {
    const { runner, brain } = setup(steps(3), { parkKey: KEY });
    const links: RunCheckpointSegment[] = [];
    const result = await runner.runTask(
      { objective: "look 3 times", tools: [recorder("echo", { readOnly: true }).tool], runId: "run-look" },
      { onCheckpointSegment: (s) => void links.push(s) },
    );
    expect(result.status).toBe("completed");
    // One link an accepted answer: it carries the results before it. The last results ride with
    // nothing — the final answer ends the run.
    expect(links.map((l) => l.messages.map((m) => m.role))).toEqual([
      ["user", "assistant"],
      ["toolResult", "assistant"],
      ["toolResult", "assistant"],
    ]);
    // Cut there, a continued run runs the third call again under its id, and asks only for the answer.
    const again = recorder("echo", { readOnly: true });
    const continued = await setup(steps(3), { parkKey: KEY }).runner.continueRun(links, { tools: [again.tool] });
    expect(continued.status).toBe("completed");
    expect(again.calls).toEqual([{ text: "step 3" }]);
    expect(brain.calls).toHaveLength(4);
  });

  it("idempotent results ride with the next answer's link; cut there, the call runs again under its key", async () => {
    const keys: string[] = [];
    const put = defineTool({
      name: "echo",
      description: "writes by key",
      input: z.object({ text: z.string() }),
      idempotent: true,
      execute: ({ text }, ctx) => (keys.push(ctx.idempotencyKey), text),
    });
    const { runner } = setup(steps(2), { parkKey: KEY });
    const links: RunCheckpointSegment[] = [];
    const result = await runner.runTask(
      { objective: "put 2 times", tools: [put], runId: "run-put" },
      { onCheckpointSegment: (s) => void links.push(s) },
    );
    expect(result.status).toBe("completed");
    expect(links.map((l) => l.messages.map((m) => m.role))).toEqual([
      ["user", "assistant"],
      ["toolResult", "assistant"],
    ]);
    const continued = await setup(steps(2), { parkKey: KEY }).runner.continueRun(links, { tools: [put] });
    expect(continued.status).toBe("completed");
    // The second call ran twice, under one key: the system it changes sees the same write again.
    expect(keys).toEqual(["run-put:call-1", "run-put:call-2", "run-put:call-2"]);
  });

  it("stopped while the model answers, the results waiting to ride are checkpointed: none runs again", async () => {
    const controller = new AbortController();
    // The third answer never comes: the run is stopped while it is asked, two results waiting.
    const stopped = stoppedAtThirdAnswer(controller);
    const looks = recorder("echo", { readOnly: true });
    const links: RunCheckpointSegment[] = [];
    const result = await setup(stopped, { parkKey: KEY }).runner.runTask(
      { objective: "look 3 times", tools: [looks.tool], runId: "run-stop" },
      { onCheckpointSegment: (s) => void links.push(s), signal: controller.signal },
    );
    expect(result.status).toBe("aborted");
    expect(looks.calls).toEqual([{ text: "step 1" }, { text: "step 2" }]);
    expect(links.map((l) => l.messages.map((m) => m.role))).toEqual([
      ["user", "assistant"],
      ["toolResult", "assistant"],
      ["toolResult"],
    ]);
    // Continued from the chain: the model is asked for turn 3, and only step 3 runs.
    const again = recorder("echo", { readOnly: true });
    const { runner, brain } = setup(steps(3), { parkKey: KEY });
    const continued = await runner.continueRun(links, { tools: [again.tool] });
    expect(continued.status).toBe("completed");
    expect(again.calls).toEqual([{ text: "step 3" }]);
    expect(brain.calls).toHaveLength(2);
  });

  it("stopped while its calls run, a turn's results are not checkpointed: the calls cut short run again", async () => {
    const controller = new AbortController();
    const slow = defineTool({
      name: "echo",
      description: "looks, slowly the second time",
      input: z.object({ text: z.string() }),
      readOnly: true,
      execute: async ({ text }, ctx) => {
        if (text === "step 2") await stoppedInside(controller, ctx.signal);
        return text;
      },
    });
    const links: RunCheckpointSegment[] = [];
    const result = await setup(steps(3), { parkKey: KEY }).runner.runTask(
      { objective: "look 3 times", tools: [slow], runId: "run-cut" },
      { onCheckpointSegment: (s) => void links.push(s), signal: controller.signal },
    );
    expect(result.status).toBe("aborted");
    // Step 2's result is the stop's own (the call was cut short): not written, so a continued run runs it.
    expect(links.map((l) => l.messages.map((m) => m.role))).toEqual([
      ["user", "assistant"],
      ["toolResult", "assistant"],
    ]);
    const again = recorder("echo", { readOnly: true });
    const continued = await setup(steps(3), { parkKey: KEY }).runner.continueRun(links, { tools: [again.tool] });
    expect(continued.status).toBe("completed");
    expect(again.calls).toEqual([{ text: "step 2" }, { text: "step 3" }]);
  });

  it("a call with an effect cut short by a stop is not checkpointed: continued, it runs again, same key", async () => {
    const controller = new AbortController();
    const keys: string[] = [];
    const act = defineTool({
      name: "echo",
      description: "acts; the second call takes its time",
      input: z.object({ text: z.string() }),
      execute: async ({ text }, ctx) => {
        keys.push(ctx.idempotencyKey);
        if (text === "step 2" && keys.length === 2) await stoppedInside(controller, ctx.signal);
        return text;
      },
    });
    const links: RunCheckpointSegment[] = [];
    const result = await setup(steps(3), { parkKey: KEY }).runner.runTask(
      { objective: "act 3 times", tools: [act], runId: "run-act" },
      { onCheckpointSegment: (s) => void links.push(s), signal: controller.signal },
    );
    expect(result.status).toBe("aborted");
    // The run's own messages say the call was stopped; its checkpoint ends before that result.
    expect(result.messages.at(-1)).toMatchObject({ role: "toolResult", details: { error: "aborted" } });
    expect(links.map((l) => l.messages.map((m) => m.role))).toEqual([
      ["user", "assistant"],
      ["toolResult"],
      ["assistant"],
    ]);
    const { runner, brain } = setup(steps(3), { parkKey: KEY });
    const continued = await runner.continueRun(links, { tools: [act] });
    expect(continued.status).toBe("completed");
    // Step 2 again under the same key (its answer is not asked again), then step 3.
    expect(keys).toEqual(["run-act:call-1", "run-act:call-2", "run-act:call-2", "run-act:call-3"]);
    expect(brain.calls).toHaveLength(2);
  });

  it("stopped while the model answers, a host that cannot take the waiting results still gets `aborted`", async () => {
    const controller = new AbortController();
    let refused = 0;
    const stopped = stoppedAtThirdAnswer(controller);
    const result = await setup(stopped, { parkKey: KEY }).runner.runTask(
      { objective: "look 3 times", tools: [recorder("echo", { readOnly: true }).tool], runId: "run-gone" },
      {
        signal: controller.signal,
        onCheckpointSegment: () => {
          if (!controller.signal.aborted) return;
          refused += 1;
          throw new Error("lease lost");
        },
      },
    );
    expect(result.status).toBe("aborted");
    // The write was asked for, and refused: the run still ends as stopped, not failed.
    expect(refused).toBe(1);
  });

  it("an idempotent call beside one with an effect, or one a person ruled on, is checkpointed at once", async () => {
    const idempotent = (name: string) =>
      defineTool({
        name,
        description: "writes by key",
        input: z.object({ text: z.string() }),
        idempotent: true,
        execute: ({ text }) => text,
      });
    const both: FauxResponder = ({ context }) =>
      context.messages.some((m) => m.role === "toolResult")
        ? fauxText("done")
        : {
            content: [
              { type: "toolCall", name: "put", arguments: { text: "a" }, id: "p-1" },
              { type: "toolCall", name: "echo", arguments: { text: "b" }, id: "e-1" },
            ],
          };
    const mixed: RunCheckpointSegment[] = [];
    await setup(both, { parkKey: KEY }).runner.runTask(
      { objective: "put and echo", tools: [idempotent("put"), recorder().tool] },
      { onCheckpointSegment: (s) => void mixed.push(s) },
    );
    expect(mixed.map((l) => l.messages.map((m) => m.role))).toEqual([
      ["user", "assistant"],
      ["toolResult", "toolResult"],
    ]);
    const ruled: RunCheckpointSegment[] = [];
    const approver = async () => ({ decision: "approve" as const });
    const result = await setup(steps(1), { parkKey: KEY, approver }).runner.runTask(
      { objective: "put once", tools: [idempotent("echo")], permissions: { echo: "ask" } },
      { onCheckpointSegment: (s) => void ruled.push(s) },
    );
    expect(result.stats.humanReview.count).toBe(1);
    expect(ruled.map((l) => l.messages.map((m) => m.role))).toEqual([["user", "assistant"], ["toolResult"]]);
  });

  it("a read-only call a person ruled on is checkpointed once its result is in: no verdict asked twice", async () => {
    const { runner } = setup(steps(1), { parkKey: KEY, approver: async () => ({ decision: "approve" }) });
    const links: RunCheckpointSegment[] = [];
    const result = await runner.runTask(
      { objective: "look once", tools: [recorder("echo", { readOnly: true }).tool], permissions: { echo: "ask" } },
      { onCheckpointSegment: (s) => void links.push(s) },
    );
    expect(result.stats.humanReview.count).toBe(1);
    expect(links.map((l) => l.messages.map((m) => m.role))).toEqual([["user", "assistant"], ["toolResult"]]);
  });

  it("a turn with a call that is not read-only is checkpointed once its results are in", async () => {
    const both: FauxResponder = ({ context }) =>
      context.messages.some((m) => m.role === "toolResult")
        ? fauxText("done")
        : {
            content: [
              { type: "toolCall", name: "look", arguments: { text: "a" }, id: "l-1" },
              { type: "toolCall", name: "echo", arguments: { text: "b" }, id: "e-1" },
            ],
          };
    const { runner } = setup(both, { parkKey: KEY });
    const links: RunCheckpointSegment[] = [];
    const result = await runner.runTask(
      { objective: "look and echo", tools: [recorder("look", { readOnly: true }).tool, recorder().tool] },
      { onCheckpointSegment: (s) => void links.push(s) },
    );
    expect(result.status).toBe("completed");
    expect(links.map((l) => l.messages.map((m) => m.role))).toEqual([
      ["user", "assistant"],
      ["toolResult", "toolResult"],
    ]);
  });

  it("a changed, missing, reordered or foreign link is refused before anything runs", async () => {
    const { links } = await chainedRun(3);
    const other = (await chainedRun(3, "run-other")).links;
    const changed = structuredClone(links);
    changed[2]!.messages[0]!.timestamp! += 1;
    const cases: Array<[string, unknown, string]> = [
      ["changed", changed, "bad_signature"],
      ["missing", [links[0], links[2], links[3]], "bad_signature"],
      ["reordered", [links[0], links[2], links[1]], "bad_signature"],
      ["no base", links.slice(1), "invalid_schema"],
      ["foreign", [links[0], links[1], other[2]], "bad_signature"],
      ["empty", [], "invalid_schema"],
      ["newer", [{ ...links[0], version: 9 }], "version_unsupported"],
    ];
    for (const [name, raw, code] of cases) {
      const error = await refusal(raw);
      expect(error, name).toBeInstanceOf(ParkedRunError);
      expect((error as ParkedRunError).code, name).toBe(code);
    }
  });

  it("signed with another key, a chain is refused", async () => {
    const { links } = await chainedRun(2);
    const { runner } = setup(steps(2), { parkKey: "another-key-0123456789-abcdef" });
    await expect(runner.continueRun(links, { tools: [recorder().tool] })).rejects.toMatchObject({
      code: "bad_signature",
    });
  });
});
