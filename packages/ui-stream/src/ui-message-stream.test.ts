import { createFauxBrain, fauxError, fauxModel, fauxText, fauxToolCall } from "@x/brain-faux";
import { createRunner, defineTool } from "@x/runner";
import {
  parseJsonEventStream,
  readUIMessageStream,
  uiMessageChunkSchema,
  type UIMessage,
  type UIMessageChunk,
} from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod/v4";
import { serve } from "../test/loopback";
import { pipeUIMessageStream } from "./response";
import type { RunEvent } from "./run-types";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

function runnerWith(script: Parameters<typeof createFauxBrain>[0]) {
  return createRunner({ brains: [createFauxBrain(script)], models: { main: fauxModel({ id: "main" }) } });
}

const lookup = defineTool({
  name: "lookup",
  description: "Looks a word up",
  input: z.object({ word: z.string() }),
  execute: async ({ word }) => `${word}: a small furry animal`,
});

/** Serves the run over real HTTP and reads it back the way the AI SDK's chat transport does. */
async function readOverHttp(events: () => AsyncIterable<RunEvent>): Promise<{ message: UIMessage; errors: string[] }> {
  const server = await serve({ node: (_req, res) => void pipeUIMessageStream(res, events(), { messageId: "m1" }) });
  closers.push(server.close);
  const response = await fetch(server.url);
  expect(response.headers.get("x-vercel-ai-ui-message-stream")).toBe("v1");
  const errors: string[] = [];
  // The SDK's own schema validates every chunk: a chunk it would not accept fails the parse.
  const chunks = parseJsonEventStream({ stream: response.body!, schema: uiMessageChunkSchema }).pipeThrough(
    new TransformStream<{ success: boolean; value?: unknown; error?: unknown }, UIMessageChunk>({
      transform(parsed, controller) {
        if (!parsed.success) throw new Error(`a chunk the AI SDK refuses: ${String(parsed.error)}`);
        controller.enqueue(parsed.value as UIMessageChunk);
      },
    }),
  );
  let message: UIMessage | undefined;
  for await (const next of readUIMessageStream({ stream: chunks, onError: (e) => errors.push(String(e)) }))
    message = next;
  return { message: message!, errors };
}

describe("the UI message stream, read by the ai package's readUIMessageStream", () => {
  it("reasoning, a tool call and an answer become steps, reasoning, text, a tool part and data parts", async () => {
    const runner = runnerWith([
      {
        content: [
          { type: "thinking", thinking: "I should look it up." },
          { type: "text", text: "Looking it up." },
          { type: "toolCall", name: "lookup", arguments: { word: "vole" }, id: "call-1" },
        ],
      },
      fauxText("A vole is a small furry animal."),
    ]);
    const { message, errors } = await readOverHttp(() =>
      runner.streamTask({ objective: "what is a vole?", tools: [lookup] }),
    );
    expect(errors).toEqual([]);
    expect(message.id).toBe("m1");
    const types = message.parts.map((part) => part.type);
    expect(types.filter((type) => type === "step-start")).toHaveLength(2);
    expect(message.parts).toContainEqual(expect.objectContaining({ type: "reasoning", text: "I should look it up." }));
    const texts = message.parts.filter((part) => part.type === "text").map((part) => part.text);
    expect(texts).toEqual(["Looking it up.", "A vole is a small furry animal."]);
    expect(message.parts).toContainEqual(
      expect.objectContaining({
        type: "dynamic-tool",
        toolName: "lookup",
        toolCallId: "call-1",
        state: "output-available",
        input: { word: "vole" },
        output: "vole: a small furry animal",
      }),
    );
    const result = message.parts.find((part) => part.type === "data-x-result");
    expect(result).toMatchObject({ data: { status: "completed", code: "completed" } });
    // The cost part has one id, so the reader keeps one part and updates it as the run spends.
    const costs = message.parts.filter((part) => part.type === "data-x-cost");
    expect(costs).toHaveLength(1);
    expect(costs[0]).toMatchObject({ data: { turns: 2 } });
  });

  it("a call the run parks becomes a tool part in approval-requested, its approval id the park id", async () => {
    const runner = runnerWith([fauxToolCall("lookup", { word: "stoat" }, { id: "call-9" })]);
    let parkId = "";
    const { message } = await readOverHttp(async function* () {
      for await (const event of runner.streamTask({
        objective: "stoat?",
        tools: [lookup],
        permissions: { lookup: "ask" },
      })) {
        if (event.type === "parked") parkId = event.parked.parkId;
        yield event;
      }
    });
    expect(parkId).not.toBe("");
    const tool = message.parts.find((part) => part.type === "dynamic-tool");
    expect(tool).toMatchObject({
      toolCallId: "call-9",
      state: "approval-requested",
      input: { word: "stoat" },
      approval: { id: parkId },
    });
    expect(message.parts.find((part) => part.type === "data-x-park")).toMatchObject({ data: { parked: { parkId } } });
    expect(message.parts.find((part) => part.type === "data-x-result")).toMatchObject({ data: { status: "parked" } });
  });

  it("a failed run ends with an error chunk the reader reports", async () => {
    const runner = runnerWith([fauxError("auth", "bad key")]);
    const { message, errors } = await readOverHttp(() => runner.streamTask({ objective: "hi" }));
    expect(errors.join(" ")).toMatch(/bad key|auth/);
    expect(message.parts.find((part) => part.type === "data-x-result")).toMatchObject({ data: { status: "failed" } });
  });
});
