import { assistantToolCalls, defineModel, type Context, type Model } from "@x/llm-types";
import { isPartialToolCallCut, isStreamCut } from "@x/terminal-cause";
import { afterEach, describe, expect, it } from "vitest";
import { createAnthropicBrain } from "./anthropic-brain";
import {
  anthropicTurnFrames,
  sseFrame,
  startAnthropicMockServer,
  type AnthropicMockServer,
  type AnthropicMockTurn,
} from "./testing";

const KEY = "sk-ant-test-0123456789";
let server: AnthropicMockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function modelAt(baseUrl: string): Model {
  return defineModel({
    id: "claude-sonnet-4-6",
    api: "anthropic-messages",
    provider: "anthropic",
    baseUrl,
    reasoning: true,
    contextWindow: 200_000,
    maxTokens: 16_000,
  });
}
const ask = (): Context => ({ messages: [{ role: "user", content: "write a.txt" }] });

/** The frames of `turn` up to and including its `upTo`-th `content_block_stop` (1-based), then a close or a reset. */
function framesThroughStop(turn: AnthropicMockTurn, upTo: number): string[] {
  const frames = anthropicTurnFrames(turn);
  let seen = 0;
  const end = frames.findIndex((frame) => frame.startsWith("event: content_block_stop") && ++seen === upTo);
  return frames.slice(0, end + 1);
}

const writeCall: AnthropicMockTurn = {
  blocks: [
    { type: "text", text: "Writing it." },
    { type: "tool_use", id: "toolu_1", name: "write", input: { path: "a.txt", text: "hello" } },
  ],
};

describe("content_block_stop closes the block", () => {
  it.each(["end", "destroy"] as const)(
    "a tool call whose block stopped keeps its arguments when the stream then drops (%s) before message_delta",
    async (ending) => {
      server = await startAnthropicMockServer([
        { kind: "wire", reply: { kind: "sse", frames: framesThroughStop(writeCall, 2), ending } },
      ]);
      const message = await createAnthropicBrain({ apiKey: KEY }).stream(modelAt(server.baseUrl), ask()).result();
      expect(message).toMatchObject({ stopReason: "stop", partialFinalized: true, errorKind: "network" });
      expect(assistantToolCalls(message)).toEqual([
        { type: "toolCall", id: "toolu_1", name: "write", arguments: { path: "a.txt", text: "hello" } },
      ]);
      expect(isPartialToolCallCut(message)).toBe(false);
      // No message_delta came: the output count is estimated, not message_start's placeholder 1.
      expect(message.usage).toMatchObject({ estimated: true });
      expect(message.usage.output).toBeGreaterThan(1);
    },
  );

  it(
    "a tool call whose block never stopped is settled by its bytes when the stream drops " + "(brain-kit's cut rule)",
    async () => {
      const frames = framesThroughStop(writeCall, 2).slice(0, -1);
      server = await startAnthropicMockServer([{ kind: "wire", reply: { kind: "sse", frames, ending: "destroy" } }]);
      const message = await createAnthropicBrain({ apiKey: KEY }).stream(modelAt(server.baseUrl), ask()).result();
      // Its JSON is a whole object, so it is the same call the closed block gives; the turn is still a cut.
      expect(assistantToolCalls(message)[0]).toEqual(
        expect.objectContaining({ arguments: { path: "a.txt", text: "hello" } }),
      );
      expect(assistantToolCalls(message)[0]?.argumentsError).toBeUndefined();
      expect(isStreamCut(message)).toBe(true);
      expect(isPartialToolCallCut(message)).toBe(false);
    },
  );

  it("a tool call the output cap cut is truncated even though its block stop arrived (max_tokens)", async () => {
    server = await startAnthropicMockServer([
      {
        blocks: [{ type: "tool_use", id: "toolu_1", name: "write", input: '{"path": "a.txt", "te' }],
        stopReason: "max_tokens",
      },
    ]);
    const message = await createAnthropicBrain({ apiKey: KEY }).stream(modelAt(server.baseUrl), ask()).result();
    expect(message.stopReason).toBe("length");
    expect(assistantToolCalls(message)[0]).toMatchObject({
      arguments: {},
      rawArguments: '{"path": "a.txt", "te',
      argumentsError: "truncated",
    });
  });

  it(
    "two thinking blocks in a row (interleaved thinking) stay two, each " +
      "with its signature, and both go back on the next turn",
    async () => {
      server = await startAnthropicMockServer([
        {
          blocks: [
            { type: "thinking", thinking: ["I should read ", "the file first."], signature: "sig-one" },
            { type: "thinking", thinking: "Then write it.", signature: "sig-two" },
            { type: "tool_use", id: "toolu_1", name: "write", input: { path: "a.txt" } },
          ],
        },
        { blocks: [{ type: "text", text: "Done." }] },
      ]);
      const brain = createAnthropicBrain({ apiKey: KEY });
      const model = modelAt(server.baseUrl);
      const context = ask();
      const first = await brain.stream(model, context, { reasoning: "low" }).result();
      expect(first.content).toEqual([
        { type: "thinking", thinking: "I should read the file first.", signature: "sig-one" },
        { type: "thinking", thinking: "Then write it.", signature: "sig-two" },
        { type: "toolCall", id: "toolu_1", name: "write", arguments: { path: "a.txt" } },
      ]);
      context.messages.push(first, {
        role: "toolResult",
        toolCallId: "toolu_1",
        toolName: "write",
        content: [{ type: "text", text: "ok" }],
        isError: false,
      });
      await brain.stream(model, context, { reasoning: "low" }).result();
      const sent = (server.bodies()[1]!.messages as Array<{ role: string; content: unknown }>)[1];
      expect(sent).toEqual({
        role: "assistant",
        content: [
          { type: "thinking", thinking: "I should read the file first.", signature: "sig-one" },
          { type: "thinking", thinking: "Then write it.", signature: "sig-two" },
          { type: "tool_use", id: "toolu_1", name: "write", input: { path: "a.txt" } },
        ],
      });
    },
  );

  it("a server-side tool block's input does not leak into the client tool call before it", async () => {
    const event = (type: string, data: Record<string, unknown>) => sseFrame({ type, ...data }, type);
    const frames = [
      event("message_start", {
        message: {
          id: "msg_1",
          type: "message",
          role: "assistant",
          content: [],
          model: "m",
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 5, output_tokens: 1 },
        },
      }),
      event("content_block_start", {
        index: 0,
        content_block: { type: "tool_use", id: "toolu_1", name: "write", input: {} },
      }),
      event("content_block_delta", {
        index: 0,
        delta: { type: "input_json_delta", partial_json: '{"path": "a.txt"}' },
      }),
      event("content_block_stop", { index: 0 }),
      event("content_block_start", {
        index: 1,
        content_block: { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: {} },
      }),
      event("content_block_delta", {
        index: 1,
        delta: { type: "input_json_delta", partial_json: '{"query": "weather"}' },
      }),
      event("content_block_stop", { index: 1 }),
      event("message_delta", { delta: { stop_reason: "tool_use", stop_sequence: null }, usage: { output_tokens: 20 } }),
      event("message_stop", {}),
    ];
    server = await startAnthropicMockServer([{ kind: "wire", reply: { kind: "sse", frames, ending: "end" } }]);
    const message = await createAnthropicBrain({ apiKey: KEY }).stream(modelAt(server.baseUrl), ask()).result();
    expect(message.content).toEqual([{ type: "toolCall", id: "toolu_1", name: "write", arguments: { path: "a.txt" } }]);
  });

  it("two text blocks in a row stay two blocks", async () => {
    server = await startAnthropicMockServer([
      {
        blocks: [
          { type: "text", text: "First part." },
          { type: "text", text: ["Second ", "part."] },
        ],
      },
    ]);
    const message = await createAnthropicBrain({ apiKey: KEY }).stream(modelAt(server.baseUrl), ask()).result();
    expect(message.content).toEqual([
      { type: "text", text: "First part." },
      { type: "text", text: "Second part." },
    ]);
  });
});
