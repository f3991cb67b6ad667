import { createFauxBrain, fauxDelay, fauxError, fauxModel, fauxText, type FauxResponse } from "@x/brain-faux";
import { createOpenAIBrain } from "@x/brain-openai";
import { startOpenAIMockServer } from "@x/brain-openai/testing";
import { defineModel, type Brain } from "@x/llm-types";
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

describe("the classifier off the critical path, over HTTP", () => {
  it("a gated call's classification reaches the provider while the main turn still streams on the wire", async () => {
    const { tool, calls } = recorder("shell");
    let streaming = false;
    let inFlight = 0;
    const arrivals: Array<{ whileStreaming: boolean; inFlight: number; command: string | undefined }> = [];
    // The main model streams two calls a frame every 40 ms, each call's arguments in pieces.
    const mainServer = await startOpenAIMockServer([
      {
        delayMs: 40,
        text: ["Two ", "commands."],
        toolCalls: [
          { id: "call-a", name: "shell", arguments: { text: "rm -rf build" } },
          { id: "call-b", name: "shell", arguments: { text: "ls" } },
        ],
      },
      { text: "done" },
    ]);
    // The classifier answers after 80 ms. As each request arrives it notes whether the main turn was
    // still open, and how many classifications were in flight (this one included).
    const clsServer = await startOpenAIMockServer((request) => {
      const last = JSON.stringify((request.body as { messages: unknown[] }).messages.at(-1));
      const command = [...last.matchAll(/rm -rf build|\bls\b/g)].at(-1)?.[0];
      arrivals.push({ whileStreaming: streaming, inFlight, command });
      return {
        delayMs: 80,
        text: command === "ls" ? "<block>no</block>" : "<block>yes</block><reason>deletes</reason>",
      };
    });
    try {
      const brain = createOpenAIBrain({ apiKey: "sk-test" });
      const watchedBrain: Brain = {
        ...brain,
        stream(model, context, request) {
          const isMain = model.id === "main-http";
          if (isMain) streaming = true;
          else inFlight += 1;
          const stream = brain.stream(model, context, request);
          void stream.result().finally(() => (isMain ? (streaming = false) : (inFlight -= 1)));
          return stream;
        },
      };
      const at = (id: string, baseUrl: string) =>
        defineModel({
          id,
          api: "openai-completions",
          provider: "local",
          baseUrl,
          contextWindow: 32_000,
          maxTokens: 512,
        });
      const runner = createRunner({
        brains: [watchedBrain],
        models: { main: at("main-http", mainServer.baseUrl), cls: at("cls-http", clsServer.baseUrl) },
        roles: { default: "main", classifier: "cls" },
      });
      const result = await runner.runTask({ objective: "clean up", tools: [tool], defaultPermission: "auto" });
      expect(result.status).toBe("completed");
      // The first call's classification reached the classifier's server while the main turn was
      // still streaming on the wire; the second (whose arguments end with the turn) while the first
      // was still being answered. Nothing ran on an early verdict.
      expect(arrivals.map((a) => a.command)).toEqual(["rm -rf build", "ls"]);
      expect(arrivals[0]!.whileStreaming).toBe(true);
      expect(arrivals[1]!.inFlight).toBe(2);
      expect(calls).toEqual([{ text: "ls" }]);
      expect(result.stats.classifierCalls).toBe(2);
    } finally {
      await Promise.all([mainServer.close(), clsServer.close()]);
    }
  });
});
