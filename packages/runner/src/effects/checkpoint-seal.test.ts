import { randomUUID } from "node:crypto";
import { fauxText, fauxToolCall, type FauxResponder } from "@x/brain-faux";
import type { ToolResultMessage } from "@x/llm-types";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { recorder, setup } from "../../test/harness";
import { canonicalJson } from "../vocabulary/canonical-json";
import { defineTool, type ToolContext } from "../vocabulary/define-tool";
import { ParkedRunError } from "../vocabulary/parked-run-error";
import type { ParkClaim, ParkLedger } from "../vocabulary/park-ledger";
import type { RunCheckpoint } from "../vocabulary/checkpoint";

const KEY = "checkpoint-test-key-0123456789";

/** Answers from the request alone: a tool call per turn until three results are in, then a text. */
const steps: FauxResponder = ({ context }) => {
  const results = context.messages.filter((m) => m.role === "toolResult").length;
  return results < 3
    ? fauxToolCall("echo", { text: `step ${results + 1}` }, { id: `call-${results + 1}` })
    : fauxText("all three done");
};

describe("run checkpoints", () => {
  it("hands the host a signed checkpoint when a turn is accepted and when its results are in", async () => {
    const { runner } = setup(steps, { parkKey: KEY });
    const { tool } = recorder();
    const checkpoints: RunCheckpoint[] = [];
    const result = await runner.runTask(
      { objective: "do three steps", tools: [tool] },
      { onCheckpoint: (c) => void checkpoints.push(c) },
    );
    expect(result.status).toBe("completed");
    // The accepted response (its calls not run yet), then its results: before the next model call.
    expect(checkpoints.map((c) => c.messages.length)).toEqual([2, 3, 4, 5, 6, 7]);
    expect(checkpoints.map((c) => c.state.stats.turns)).toEqual([1, 1, 2, 2, 3, 3]);
    expect(checkpoints.map((c) => c.messages.at(-1)!.role)).toEqual([
      "assistant",
      "toolResult",
      "assistant",
      "toolResult",
      "assistant",
      "toolResult",
    ]);
    expect(checkpoints.at(-1)!.messages).toEqual(JSON.parse(JSON.stringify(result.messages.slice(0, 7))));
  });

  it("a run continued from a checkpoint sends the same requests, byte for byte, as the uncut run", async () => {
    const whole = setup(steps, { parkKey: KEY });
    const checkpoints: RunCheckpoint[] = [];
    const uncut = await whole.runner.runTask(
      { objective: "do three steps", tools: [recorder().tool], runId: "run-1" },
      { onCheckpoint: (c) => void checkpoints.push(c) },
    );
    const other = setup(steps, { parkKey: KEY });
    const { tool, calls } = recorder();
    const stored = JSON.parse(JSON.stringify(checkpoints[3])) as unknown;
    const continued = await other.runner.continueRun(stored, { tools: [tool] });
    expect(continued.status).toBe("completed");
    expect(continued.output).toBe(uncut.output);
    const untimed = (messages: readonly object[]) => messages.map((m) => ({ ...m, timestamp: 0 }));
    expect(untimed(continued.messages)).toEqual(untimed(JSON.parse(JSON.stringify(uncut.messages)) as object[]));
    expect(continued.stats.turns).toBe(uncut.stats.turns);
    expect(calls).toEqual([{ text: "step 3" }]);
    // The first request after the cut is the lost process's next request: the same content (a
    // brain serialises fields by name, so key order inside a message does not reach the wire).
    expect(canonicalJson(other.brain.calls[0]!.context)).toBe(canonicalJson(whole.brain.calls[2]!.context));
  });

  it("a run continued from an accepted turn runs its unanswered calls, same ids, asking nothing new", async () => {
    // A real provider names its calls anew on every request: a turn asked again would change every key.
    const fresh: FauxResponder = ({ context }) => {
      const results = context.messages.filter((m) => m.role === "toolResult").length;
      return results < 3
        ? fauxToolCall("echo", { text: `step ${results + 1}` }, { id: `call-${randomUUID()}` })
        : fauxText("all three done");
    };
    const whole = setup(fresh, { parkKey: KEY });
    const checkpoints: RunCheckpoint[] = [];
    const keys: string[] = [];
    const keyed = (into: string[]) =>
      defineTool({
        name: "echo",
        description: "echoes",
        input: z.object({ text: z.string() }),
        execute: ({ text }, context: ToolContext) => (into.push(context.idempotencyKey), text),
      });
    await whole.runner.runTask(
      { objective: "do three steps", tools: [keyed(keys)], runId: "run-accepted" },
      { onCheckpoint: (c) => void checkpoints.push(c) },
    );
    // The process died while turn 3's call ran: its last checkpoint is the accepted turn.
    const accepted = JSON.parse(JSON.stringify(checkpoints[4])) as RunCheckpoint;
    expect(accepted.messages.at(-1)!.role).toBe("assistant");
    const other = setup(fresh, { parkKey: KEY });
    const retried: string[] = [];
    const continued = await other.runner.continueRun(accepted, { tools: [keyed(retried)] });
    expect(continued.status).toBe("completed");
    expect(other.brain.calls).toHaveLength(1); // the final answer only: turn 3 is not asked again
    expect(retried).toEqual([keys[2]]);
    expect(continued.stats.turns).toBe(4);
  });

  it("a tampered or foreign checkpoint is refused typed, and nothing runs", async () => {
    const { runner } = setup(steps, { parkKey: KEY });
    const checkpoints: RunCheckpoint[] = [];
    await runner.runTask(
      { objective: "x", tools: [recorder().tool] },
      { onCheckpoint: (c) => void checkpoints.push(c) },
    );
    const tampered = structuredClone(checkpoints[0]!);
    tampered.spec.objective = "delete everything";
    const other = setup(steps, { parkKey: KEY });
    await expect(other.runner.continueRun(tampered)).rejects.toMatchObject({ code: "bad_signature" });
    const foreign = setup(steps, { parkKey: "another-key-0123456789abcdef" });
    await expect(foreign.runner.continueRun(checkpoints[0])).rejects.toBeInstanceOf(ParkedRunError);
    await expect(other.runner.continueRun({ kind: "x.run_checkpoint" })).rejects.toMatchObject({
      code: "invalid_schema",
    });
    expect(other.brain.calls).toHaveLength(0);
  });
});

describe("tool idempotency key", () => {
  it("is runId:toolCallId, the same when a parked call is resumed in another runner", async () => {
    const seen: ToolContext[] = [];
    const write = defineTool({
      name: "write",
      description: "writes",
      input: z.object({ text: z.string() }),
      permission: "ask",
      execute: (_args, ctx) => (seen.push(ctx), "ok"),
    });
    const script = [fauxToolCall("write", { text: "a" }, { id: "call-7" }), fauxText("done")];
    const first = setup(script, { parkKey: KEY, parkLedger: recordingLedger().ledger });
    const parked = await first.runner.runTask({ objective: "w", tools: [write], runId: "run-9" });
    expect(parked.status).toBe("parked");
    const second = setup([fauxText("done")], { parkKey: KEY, parkLedger: recordingLedger().ledger });
    await second.runner.resume(parked.parked, { decision: "approve" }, { tools: [write] });
    expect(seen.map((c) => c.idempotencyKey)).toEqual(["run-9:call-7"]);
  });
});

/** A ledger that answers as told and records the runner's marks. */
function recordingLedger(answer: boolean | ParkClaim = true) {
  const marks: string[] = [];
  const ledger: ParkLedger = {
    claim: async (id) => (marks.push(`claim ${id.length > 0}`), answer),
    executing: async () => void marks.push("executing"),
    executed: async (_id, result) => void marks.push(`executed ${result.isError ? "error" : "ok"}`),
  };
  return { ledger, marks };
}

describe("park ledger protocol", () => {
  const write = (runs: string[]) =>
    defineTool({
      name: "write",
      description: "writes",
      input: z.object({ text: z.string() }),
      permission: "ask",
      execute: ({ text }) => (runs.push(text), `wrote ${text}`),
    });
  const parkOne = async (runs: string[]) => {
    const { runner } = setup([fauxToolCall("write", { text: "a" })], {
      parkKey: KEY,
      parkLedger: recordingLedger().ledger,
    });
    const result = await runner.runTask({ objective: "w", tools: [write(runs)] });
    return result.parked!;
  };

  it("marks executing right before the approved call and executed with its result right after", async () => {
    const runs: string[] = [];
    const parked = await parkOne(runs);
    const { ledger, marks } = recordingLedger();
    const { runner } = setup([fauxText("done")], { parkKey: KEY, parkLedger: ledger });
    const result = await runner.resume(parked, { decision: "approve" }, { tools: [write(runs)] });
    expect(result.status).toBe("completed");
    expect(marks).toEqual(["claim true", "executing", "executed ok"]);
    expect(runs).toEqual(["a"]);
  });

  it("an approved call a stop cuts short is not marked executed: no stopped result replayed later", async () => {
    const runs: string[] = [];
    const parked = await parkOne(runs);
    const controller = new AbortController();
    const slow = defineTool({
      name: "write",
      description: "writes, slowly",
      input: z.object({ text: z.string() }),
      permission: "ask",
      execute: async ({ text }, ctx) => {
        runs.push(text);
        setTimeout(() => controller.abort(), 10);
        await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve));
        return `wrote ${text}`;
      },
    });
    const { ledger, marks } = recordingLedger();
    const checkpoints: RunCheckpoint[] = [];
    const { runner } = setup([fauxText("done")], { parkKey: KEY, parkLedger: ledger });
    const result = await runner.resume(
      parked,
      { decision: "approve" },
      { tools: [slow], signal: controller.signal, onCheckpoint: (c) => void checkpoints.push(c) },
    );
    expect(result.status).toBe("aborted");
    // Left executing: the claim lapses to an unknown outcome, as after a crash mid-call.
    expect(marks).toEqual(["claim true", "executing"]);
    expect(runs).toEqual(["a"]);
    expect(checkpoints.flatMap((c) => c.messages).some((m) => m.role === "toolResult")).toBe(false);
  });

  it("a denial is recorded too, and nothing is marked executing", async () => {
    const runs: string[] = [];
    const parked = await parkOne(runs);
    const { ledger, marks } = recordingLedger();
    const { runner } = setup([fauxText("ok, not writing")], { parkKey: KEY, parkLedger: ledger });
    await runner.resume(parked, { decision: "deny" }, { tools: [write(runs)] });
    expect(marks).toEqual(["claim true", "executed error"]);
    expect(runs).toEqual([]);
  });

  it("a recorded result is replayed into the run without running the call again", async () => {
    const runs: string[] = [];
    const parked = await parkOne(runs);
    const recorded: ToolResultMessage = {
      role: "toolResult",
      toolCallId: parked.pending.toolCallId,
      toolName: "write",
      content: [{ type: "text", text: "wrote a (recorded)" }],
      isError: false,
      timestamp: 1,
    };
    const { ledger, marks } = recordingLedger({ status: "recorded", result: recorded });
    const { runner } = setup([fauxText("done")], { parkKey: KEY, parkLedger: ledger });
    const result = await runner.resume(parked, { decision: "approve" }, { tools: [write(runs)] });
    expect(result.status).toBe("completed");
    expect(runs).toEqual([]);
    expect(marks).toEqual(["claim true"]);
    expect(
      result.messages.some(
        (m) => m.role === "toolResult" && m.content[0]?.type === "text" && m.content[0].text === "wrote a (recorded)",
      ),
    ).toBe(true);
  });

  it.each(["replayed", "in_progress", "unknown_outcome"] as const)(
    "a refusal (%s) throws ParkedRunError with that code and runs nothing",
    async (reason) => {
      const runs: string[] = [];
      const parked = await parkOne(runs);
      const { ledger } = recordingLedger({ status: "refused", reason });
      const { runner, brain } = setup([fauxText("done")], { parkKey: KEY, parkLedger: ledger });
      await expect(runner.resume(parked, { decision: "approve" }, { tools: [write(runs)] })).rejects.toMatchObject({
        code: reason,
      });
      expect(runs).toEqual([]);
      expect(brain.calls).toHaveLength(0);
    },
  );
});
