import { join } from "node:path";
import { defineModel } from "@x/llm-types";
import {
  isJsonObject,
  jsonString,
  observedTurn,
  readRecordedStream,
  recordedPayloads,
  recordedTurns,
  type RecordedStream,
} from "@x/brain-kit/testing";
import { afterAll, describe, expect, it } from "vitest";
import { createOpenAIBrain } from "../src/index";
import { expectedChatTurn } from "./chat-expectations";

const ROOT = join(import.meta.dirname, "../recordings");

/** The model id the recording names, so the replayed turn carries it. */
function recordedModel(recording: RecordedStream): string {
  for (const { payload } of recordedPayloads(recording)) {
    const model = (payload as { model?: unknown }).model;
    if (typeof model === "string" && model) return model;
  }
  return "recorded";
}

const recorded = recordedTurns({
  root: ROOT,
  prefix: "chat/",
  brain: () => createOpenAIBrain({ apiKey: "recorded", guard: false }),
  model: (recording, file, origin) =>
    defineModel({
      id: recordedModel(recording),
      api: "openai-completions",
      provider: file.split("/")[1]!,
      baseUrl: `${origin}/v1`,
      reasoning: true,
      contextWindow: 128_000,
      maxTokens: 4096,
    }),
});
const { sources, files: chat } = recorded;
afterAll(() => recorded.close());

describe("recorded Chat Completions streams", () => {
  it("the corpus covers every host the issue names, each file with its source", () => {
    const hosts = new Set(chat.map((file) => file.split("/")[1]));
    for (const host of ["openai", "azure", "deepseek", "xai", "groq", "mistral", "dashscope", "openrouter", "ollama"])
      expect(hosts, host).toContain(host);
    for (const file of chat)
      expect(sources[file], file).toMatchObject({
        repo: expect.any(String),
        commit: expect.any(String),
        licence: expect.any(String),
      });
  });

  it("the corpus holds streams served by vLLM, known by the vllm-<version> fingerprint they carry", () => {
    const servedByVllm = chat.filter((file) =>
      recordedPayloads(readRecordedStream(join(ROOT, file))).some(
        ({ payload }) => isJsonObject(payload) && jsonString(payload.system_fingerprint).startsWith("vllm-"),
      ),
    );
    expect(servedByVllm).toContain("chat/crusoe/llama-3.3-70b-text.sse");
  });

  it.each(chat)("%s reads as the recording says", async (file) => {
    const { message, recording } = await recorded.replay(file);
    const expected = expectedChatTurn(recording);
    expect(observedTurn(message, expected)).toEqual(expected);
  });
});
