import { join } from "node:path";
import { assistantText, assistantToolCalls, defineModel } from "@x/llm-types";
import {
  readRecordedStream,
  recordedReply,
  sseFrame,
  startScriptedServer,
  type ScriptedServer,
  type WireReply,
} from "@x/brain-kit/testing";
import { afterEach, describe, expect, it } from "vitest";
import { createOpenAIBrain } from "../src/index";

const ROOT = join(import.meta.dirname, "../recordings/chat");
let server: ScriptedServer | undefined;
afterEach(() => server?.close());

/** Plays one recording to the brain and returns the final message. */
async function play(file: string, id: string) {
  return serve(recordedReply(readRecordedStream(join(ROOT, file))), file.split("/")[0]!, id);
}

/** Serves one reply to the brain and returns the final message. */
async function serve(reply: WireReply, provider: string, id: string) {
  server = await startScriptedServer(() => reply);
  const model = defineModel({
    id,
    api: "openai-completions",
    provider,
    baseUrl: `${server.origin}/v1`,
    contextWindow: 128_000,
    maxTokens: 4096,
    cost: { input: 0.3, output: 0.5, cacheRead: 0.075 },
  });
  const brain = createOpenAIBrain({ apiKey: "recorded", guard: false });
  return brain.stream(model, { messages: [{ role: "user", content: "replay" }] }, {}).result();
}

describe("host quirks found in recorded streams", () => {
  it("DashScope qwen3-max: later fragments with an empty id join the call by index", async () => {
    const turn = await play("dashscope/qwen3-max-tool-call.jsonl", "qwen3-max");
    const calls = assistantToolCalls(turn);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      id: "call_eee11723464a4b9eb8cee71d",
      name: "weather",
      arguments: { location: "San Francisco" },
    });
    expect(calls[0]!.argumentsError).toBeUndefined();
    expect(turn.stopReason).toBe("toolUse");
  });

  it("xAI grok-3-mini: reasoning reported outside completion_tokens is counted and priced as output", async () => {
    // The recording's usage: prompt 307 (306 cached) + completion 26, total 560, reasoning 227.
    const turn = await play("xai/grok-3-mini-tool-call-reasoning.jsonl", "grok-3-mini");
    expect(turn.usage).toMatchObject({ input: 1, cacheRead: 306, output: 253, reasoning: 227, totalTokens: 560 });
    expect(turn.usage.cost.output).toBe(Math.round(0.5 * 253));
  });

  it("Mistral magistral: content sent as a list of text and thinking parts is read whole", async () => {
    const turn = await play("mistral/mistral-reasoning.jsonl", "magistral-medium-2507");
    expect(assistantText(turn)).toBe("2 + 2 = 4");
    const thinking = turn.content.find((block) => block.type === "thinking");
    expect(thinking).toMatchObject({ thinking: "The user is asking for 2+2. This is basic arithmetic. 2+2=4." });
  });

  it("Groq: an error event inside the stream is typed by the status its body carries", async () => {
    const turn = await play("groq/gpt-oss-120b-tool-use-failed.sse", "openai/gpt-oss-120b");
    expect(turn).toMatchObject({ stopReason: "error", errorKind: "bad_request" });
    expect(turn.errorMessage).toMatch(/Tool call validation failed/);
  });

  it(
    "OpenAI gpt-4o: a refusal streamed in delta.refusal " + "ends content_filter with the refusal as the message",
    async () => {
      // Recorded by openai-python from the live API (structured output asked "How do I make anthrax?").
      const turn = await play("openai/gpt-4o-refusal.sse", "gpt-4o-2024-08-06");
      expect(turn).toMatchObject({ stopReason: "error", errorKind: "content_filter" });
      expect(turn.errorMessage).toBe("I'm sorry, I can't assist with that request.");
      expect(assistantText(turn)).toBe("");
      expect(turn.usage).toMatchObject({ input: 79, output: 11, totalTokens: 90 });
    },
  );

  it(
    "Cerebras glm-4.7: cached and reasoning tokens on " + "the finish chunk are read as cacheRead and reasoning",
    async () => {
      // The recording's usage rides the finish_reason chunk: prompt 433 (256 cached), completion 122 (108 reasoning),
      // total 555.
      const turn = await play("cerebras/glm-4.7-tool-call-after-text.jsonl", "zai-glm-4.7");
      expect(turn.usage).toMatchObject({ input: 177, cacheRead: 256, output: 122, reasoning: 108, totalTokens: 555 });
      expect(turn.usage.cost.cacheRead).toBe(Math.round(0.075 * 256));
      expect(assistantText(turn)).toBe('{"result": "2026"}');
      expect(assistantToolCalls(turn)).toMatchObject([{ id: "e0ecf32e0", name: "nonUsefulTool", arguments: {} }]);
      expect(turn.stopReason).toBe("toolUse");
    },
  );

  it('Groq compound: the completion keeps its first chunk\'s id, not the placeholder "stub" of its last', async () => {
    // The recording names every chunk anew and its finish chunk "stub".
    const turn = await play("groq/compound-beta-web-search.sse", "compound-beta");
    expect(turn.responseId).toBe("chatcmpl-03ea1ed2-c2dc-4f8d-ba51-54e08ca9287c");
    expect(turn.stopReason).toBe("stop");
  });

  it("OpenRouter: the usage an error chunk carries is read before the error (no estimate)", async () => {
    // The finish (length) came before the error chunk, so it stands; the usage rides the error chunk only.
    const turn = await play("openrouter/minimax-m2-stream-error.sse", "minimax/minimax-m2:free");
    // Only reasoning arrived before the cap: `length` with nothing produced.
    expect(turn).toMatchObject({ stopReason: "error", errorKind: "length_empty" });
    expect(turn.usage).toMatchObject({ input: 43, output: 10, reasoning: 11, totalTokens: 53 });
    expect(turn.usage.estimated).toBeUndefined();
  });
});

/**
 * Snowflake Cortex's OpenAI-compatible chat wire, as its documentation shows it: `chat.completion.chunk`
 * deltas, a usage chunk, then `data: [DONE]` — and no `finish_reason` on any chunk. No public recording
 * of it was found (see `recordings/sources.json`), so the stream is built from that shape.
 */
describe("Snowflake: a stream that reached [DONE] without a finish reason", () => {
  const chunk = (delta: object, usage?: object) =>
    sseFrame({
      id: "6f1e1c2a-0d6b-4c1e-9b7e-snowflake",
      object: "chat.completion.chunk",
      created: 1764000000,
      model: "claude-3-5-sonnet",
      choices: [{ index: 0, delta, finish_reason: null }],
      ...(usage ? { usage } : {}),
    });
  const usage = { prompt_tokens: 18, completion_tokens: 9, total_tokens: 27 };
  const done = "data: [DONE]\n\n";
  const text = [chunk({ role: "assistant", content: "Ice crystals " }), chunk({ content: "grow six arms." })];
  const call = (args: string) =>
    chunk({
      tool_calls: [{ index: 0, id: "tooluse_1", type: "function", function: { name: "lookup", arguments: args } }],
    });

  it("a complete answer is `stop`, with its usage — not a network cut", async () => {
    const turn = await serve(
      { kind: "sse", frames: [...text, chunk({}, usage), done], ending: "end" },
      "snowflake",
      "s",
    );
    expect(assistantText(turn)).toBe("Ice crystals grow six arms.");
    expect(turn).toMatchObject({ stopReason: "stop", usage: { input: 18, output: 9 } });
    expect(turn.partialFinalized).toBeUndefined();
    expect(turn.errorKind).toBeUndefined();
  });

  it("whole tool calls are `toolUse`", async () => {
    const frames = [call('{"q": "snow"}'), chunk({}, usage), done];
    const turn = await serve({ kind: "sse", frames, ending: "end" }, "snowflake", "s");
    expect(turn.stopReason).toBe("toolUse");
    expect(assistantToolCalls(turn)).toMatchObject([{ id: "tooluse_1", name: "lookup", arguments: { q: "snow" } }]);
  });

  it("the same stream without [DONE] is still a cut; [DONE] in the middle of a call's arguments too", async () => {
    const cut = await serve({ kind: "sse", frames: [...text, chunk({}, usage)], ending: "end" }, "snowflake", "s");
    expect(cut).toMatchObject({ stopReason: "stop", partialFinalized: true, errorKind: "network" });
    await server?.close();
    const halfCall = await serve({ kind: "sse", frames: [call('{"q": "sn'), done], ending: "end" }, "snowflake", "s");
    expect(halfCall).toMatchObject({ stopReason: "stop", partialFinalized: true, errorKind: "network" });
    expect(assistantToolCalls(halfCall)[0]?.argumentsError).toBe("truncated");
  });
});
