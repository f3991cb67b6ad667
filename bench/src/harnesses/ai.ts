// The Vercel AI SDK: `generateText` (as most agent code calls it) and `streamText` (the streaming
// twin, same wire as the others), both with `@ai-sdk/openai-compatible`. In-process, ai's own
// MockLanguageModelV4 scripted like the server.
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { generateText, stepCountIs, streamText, tool, type LanguageModel } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { z } from "zod";
import { argPieces } from "../script";
import {
  API_KEY,
  FINAL_WORDS,
  MODEL_ID,
  SYSTEM_PROMPT,
  TOOL_DESCRIPTION,
  TOOL_NAME,
  TURNS,
  lookup,
  objectiveFor,
  usageFor,
} from "../workload";
import type { Harness, Mode, TaskFn } from "./types";

const tools = {
  [TOOL_NAME]: tool({
    description: TOOL_DESCRIPTION,
    inputSchema: z.object({ key: z.string() }),
    execute: async ({ key }) => lookup(key),
  }),
};

type CallOptions = Parameters<MockLanguageModelV4["doGenerate"]>[0];
const turnOf = (o: CallOptions) => o.prompt.filter((m) => m.role === "tool").length + 1;
const usage = (k: number) => {
  const u = usageFor(k, k >= TURNS);
  return {
    inputTokens: { total: u.prompt_tokens, noCache: u.prompt_tokens, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: u.completion_tokens, text: u.completion_tokens, reasoning: undefined },
  };
};
const finish = (k: number) =>
  k < TURNS ? { unified: "tool-calls" as const, raw: "tool_calls" } : { unified: "stop" as const, raw: "stop" };

function mockModel(): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    modelId: MODEL_ID,
    doGenerate: async (o) => {
      const k = turnOf(o);
      const content =
        k < TURNS
          ? [{ type: "tool-call" as const, toolCallId: `call_${k}`, toolName: TOOL_NAME, input: argPieces(k).join("") }]
          : [{ type: "text" as const, text: FINAL_WORDS.join("") }];
      return { content, finishReason: finish(k), usage: usage(k), warnings: [] };
    },
    doStream: async (o) => {
      const k = turnOf(o);
      type Part =
        Awaited<ReturnType<MockLanguageModelV4["doStream"]>>["stream"] extends ReadableStream<infer P> ? P : never;
      const parts: Part[] = [{ type: "stream-start", warnings: [] }];
      if (k < TURNS) {
        const id = `call_${k}`;
        parts.push({ type: "tool-input-start", id, toolName: TOOL_NAME });
        for (const p of argPieces(k)) parts.push({ type: "tool-input-delta", id, delta: p });
        parts.push({ type: "tool-input-end", id });
        parts.push({ type: "tool-call", toolCallId: id, toolName: TOOL_NAME, input: argPieces(k).join("") });
      } else {
        parts.push({ type: "text-start", id: "t" });
        for (const w of FINAL_WORDS) parts.push({ type: "text-delta", id: "t", delta: w });
        parts.push({ type: "text-end", id: "t" });
      }
      parts.push({ type: "finish", finishReason: finish(k), usage: usage(k) });
      return {
        stream: new ReadableStream<Part>({
          start(c) {
            for (const p of parts) c.enqueue(p);
            c.close();
          },
        }),
      };
    },
  });
}

function model(mode: Mode, baseURL: string): LanguageModel {
  if (mode === "inproc") return mockModel();
  return createOpenAICompatible({ name: "bench", baseURL, apiKey: API_KEY, includeUsage: true }).chatModel(MODEL_ID);
}

const common = { system: SYSTEM_PROMPT, tools, stopWhen: stepCountIs(TURNS + 1), maxRetries: 0 };

export const aiGenerate: Harness = {
  label: "ai generateText",
  packages: ["ai", "@ai-sdk/openai-compatible"],
  async setup(mode, { baseURL }) {
    const m = model(mode, baseURL);
    const task: TaskFn = async (i) => (await generateText({ ...common, model: m, prompt: objectiveFor(i) })).text;
    return task;
  },
};

export const aiStream: Harness = {
  label: "ai streamText",
  packages: ["ai", "@ai-sdk/openai-compatible"],
  async setup(mode, { baseURL }) {
    const m = model(mode, baseURL);
    const task: TaskFn = async (i) => {
      let failure: unknown;
      const r = streamText({
        ...common,
        model: m,
        prompt: objectiveFor(i),
        onError: ({ error }) => void (failure = error),
      });
      // When the stream fails, `r.text` rejects with a generic "no output" error before the line
      // after it runs: the cause `onError` saw is what the report must show.
      const cause = () => (failure instanceof Error ? failure : new Error(String(failure)));
      let text: string;
      try {
        text = await r.text;
      } catch (error) {
        throw failure === undefined ? error : cause();
      }
      if (failure !== undefined) throw cause();
      return text;
    };
    return task;
  },
};
