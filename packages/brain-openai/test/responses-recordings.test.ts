import { join } from "node:path";
import { observedTurn, recordedPayloads, recordedTurns, type RecordedStream } from "@x/brain-kit/testing";
import { defineModel } from "@x/llm-types";
import { afterAll, describe, expect, it } from "vitest";
import { createOpenAIResponsesBrain } from "../src/index";
import { expectedResponsesTurn } from "./responses-expectations";

function recordedModel(recording: RecordedStream): string {
  for (const { payload } of recordedPayloads(recording)) {
    const model = (payload as { response?: { model?: unknown } }).response?.model;
    if (typeof model === "string" && model) return model;
  }
  return "recorded";
}

const recorded = recordedTurns({
  root: join(import.meta.dirname, "../recordings"),
  prefix: "responses/",
  brain: () => createOpenAIResponsesBrain({ apiKey: "recorded", guard: false }),
  model: (recording, file, origin) =>
    defineModel({
      id: recordedModel(recording),
      api: "openai-responses",
      provider: file.split("/")[1]!,
      baseUrl: `${origin}/v1`,
      reasoning: true,
      contextWindow: 400_000,
      maxTokens: 8192,
    }),
});
const { sources, files } = recorded;
afterAll(() => recorded.close());

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
    const { message, recording } = await recorded.replay(file);
    const expected = expectedResponsesTurn(recording);
    expect(observedTurn(message, expected)).toEqual(expected);
  });
});
