import { readFileSync } from "node:fs";
import { join } from "node:path";
import { defineModel } from "@x/llm-types";
import {
  isJsonObject,
  jsonString,
  listRecordedStreams,
  observedTurn,
  readRecordedStream,
  recordedPayloads,
  startRecordingReplay,
  type RecordedStream,
  type RecordingReplay,
} from "@x/brain-kit/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOpenAIBrain } from "../src/index";
import { expectedChatTurn } from "./chat-expectations";

const ROOT = join(import.meta.dirname, "../recordings");
const sources = JSON.parse(readFileSync(join(ROOT, "sources.json"), "utf8")) as Record<string, unknown>;
const chat = listRecordedStreams(ROOT).filter((file) => file.startsWith("chat/"));

let server: RecordingReplay;
let playing: RecordedStream | undefined;
beforeAll(async () => {
  server = await startRecordingReplay(ROOT);
});
afterAll(() => server.close());

/** The model id the recording names, so the replayed turn carries it. */
function recordedModel(recording: RecordedStream): string {
  for (const { payload } of recordedPayloads(recording)) {
    const model = (payload as { model?: unknown }).model;
    if (typeof model === "string" && model) return model;
  }
  return "recorded";
}

async function replay(file: string) {
  playing = server.load(file);
  const host = file.split("/")[1]!;
  const model = defineModel({
    id: recordedModel(playing),
    api: "openai-completions",
    provider: host,
    baseUrl: `${server.origin}/v1`,
    reasoning: true,
    contextWindow: 128_000,
    maxTokens: 4096,
  });
  const brain = createOpenAIBrain({ apiKey: "recorded", guard: false });
  return brain.stream(model, { messages: [{ role: "user", content: "replay" }] }, { timeoutMs: 10_000 }).result();
}

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
    const message = await replay(file);
    const expected = expectedChatTurn(playing!);
    expect(observedTurn(message, expected)).toEqual(expected);
  });
});
