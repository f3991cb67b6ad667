import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  listRecordedStreams,
  observedTurn,
  recordedPayloads,
  startRecordingReplay,
  type RecordedStream,
  type RecordingReplay,
} from "@x/brain-kit/testing";
import { defineModel } from "@x/llm-types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOpenAIResponsesBrain } from "../src/index";
import { expectedResponsesTurn } from "./responses-expectations";

const ROOT = join(import.meta.dirname, "../recordings");
const sources = JSON.parse(readFileSync(join(ROOT, "sources.json"), "utf8")) as Record<string, unknown>;
const files = listRecordedStreams(ROOT).filter((file) => file.startsWith("responses/"));

let server: RecordingReplay;
let playing: RecordedStream | undefined;
beforeAll(async () => {
  server = await startRecordingReplay(ROOT);
});
afterAll(() => server.close());

function recordedModel(recording: RecordedStream): string {
  for (const { payload } of recordedPayloads(recording)) {
    const model = (payload as { response?: { model?: unknown } }).response?.model;
    if (typeof model === "string" && model) return model;
  }
  return "recorded";
}

async function replay(file: string) {
  playing = server.load(file);
  const model = defineModel({
    id: recordedModel(playing),
    api: "openai-responses",
    provider: file.split("/")[1]!,
    baseUrl: `${server.origin}/v1`,
    reasoning: true,
    contextWindow: 400_000,
    maxTokens: 8192,
  });
  const brain = createOpenAIResponsesBrain({ apiKey: "recorded", guard: false });
  return brain.stream(model, { messages: [{ role: "user", content: "replay" }] }, { timeoutMs: 10_000 }).result();
}

describe("recorded Responses API streams", () => {
  it("the corpus has OpenAI, Azure, xAI and open-weight hosts, each file with its source", () => {
    const hosts = new Set(files.map((file) => file.split("/")[1]));
    for (const host of ["openai", "azure", "xai", "deepseek", "openrouter", "lmstudio"])
      expect(hosts, host).toContain(host);
    for (const file of files)
      expect(sources[file], file).toMatchObject({
        repo: expect.any(String),
        commit: expect.any(String),
        licence: expect.any(String),
      });
  });

  it.each(files)("%s reads as the recording says", async (file) => {
    const message = await replay(file);
    const expected = expectedResponsesTurn(playing!);
    expect(observedTurn(message, expected)).toEqual(expected);
  });
});
