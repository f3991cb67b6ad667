import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  listRecordedStreams,
  observedTurn,
  startRecordingReplay,
  type RecordedStream,
  type RecordingReplay,
} from "@x/brain-kit/testing";
import { defineModel } from "@x/llm-types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAnthropicBrain } from "../src/index";
import { expectedMessagesTurn } from "./messages-expectations";

const ROOT = join(import.meta.dirname, "../recordings");
const sources = JSON.parse(readFileSync(join(ROOT, "sources.json"), "utf8")) as Record<string, unknown>;
const files = listRecordedStreams(ROOT);

let server: RecordingReplay;
let playing: RecordedStream | undefined;
beforeAll(async () => {
  server = await startRecordingReplay(ROOT);
});
afterAll(() => server.close());

async function replay(file: string) {
  playing = server.load(file);
  const model = defineModel({
    id: "claude-recorded",
    api: "anthropic-messages",
    provider: "anthropic",
    baseUrl: server.origin,
    reasoning: true,
    contextWindow: 200_000,
    maxTokens: 8192,
  });
  const brain = createAnthropicBrain({ apiKey: "recorded", guard: false });
  return brain.stream(model, { messages: [{ role: "user", content: "replay" }] }, { timeoutMs: 10_000 }).result();
}

describe("recorded Anthropic Messages streams", () => {
  it("every recording names its source, commit and licence", () => {
    expect(files.length).toBeGreaterThanOrEqual(25);
    for (const file of files)
      expect(sources[file], file).toMatchObject({
        repo: expect.any(String),
        commit: expect.any(String),
        licence: expect.any(String),
      });
  });

  it.each(files)("%s reads as the recording says", async (file) => {
    const message = await replay(file);
    const expected = expectedMessagesTurn(playing!);
    expect(observedTurn(message, expected)).toEqual(expected);
  });
});

describe("Anthropic content that arrives whole", () => {
  it("a tool input sent whole in content_block_start is kept (programmatic tool calling)", async () => {
    const message = await replay("programmatic-tool-call-whole-input.jsonl");
    expect(message.content.find((block) => block.type === "toolCall")).toMatchObject({
      name: "rollDie",
      arguments: { player: "player1" },
    });
    expect(message.stopReason).toBe("toolUse");
  });

  it("a reply sent whole in message_start is read, stop reason included", async () => {
    const message = await replay("programmatic-tool-call-in-message-start.jsonl");
    expect(message).toMatchObject({ stopReason: "toolUse" });
    expect(message.content).toEqual([
      expect.objectContaining({
        type: "toolCall",
        id: "toolu_015dGLMbwBKv1ZRQr6KdJzeH",
        arguments: { player: "player2" },
      }),
    ]);
  });
});
