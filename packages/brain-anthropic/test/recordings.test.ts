import { join } from "node:path";
import { observedTurn, recordedTurns } from "@x/brain-kit/testing";
import { defineModel } from "@x/llm-types";
import { afterAll, describe, expect, it } from "vitest";
import { createAnthropicBrain } from "../src/index";
import { expectedMessagesTurn } from "./messages-expectations";

const recorded = recordedTurns({
  root: join(import.meta.dirname, "../recordings"),
  brain: () => createAnthropicBrain({ apiKey: "recorded", guard: false }),
  model: (_recording, _file, origin) =>
    defineModel({
      id: "claude-recorded",
      api: "anthropic-messages",
      provider: "anthropic",
      baseUrl: origin,
      reasoning: true,
      contextWindow: 200_000,
      maxTokens: 8192,
    }),
});
const { sources, files } = recorded;
afterAll(() => recorded.close());

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
    const { message, recording } = await recorded.replay(file);
    const expected = expectedMessagesTurn(recording);
    expect(observedTurn(message, expected)).toEqual(expected);
  });
});

describe("Anthropic content that arrives whole", () => {
  it("a tool input sent whole in content_block_start is kept (programmatic tool calling)", async () => {
    const { message } = await recorded.replay("programmatic-tool-call-whole-input.jsonl");
    expect(message.content.find((block) => block.type === "toolCall")).toMatchObject({
      name: "rollDie",
      arguments: { player: "player1" },
    });
    expect(message.stopReason).toBe("toolUse");
  });

  it("a reply sent whole in message_start is read, stop reason included", async () => {
    const { message } = await recorded.replay("programmatic-tool-call-in-message-start.jsonl");
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
