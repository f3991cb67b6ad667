// The floor: the same turns done by hand with the `openai` SDK, no framework. In-process it runs the
// same loop over the scripted chunk objects, with no SDK and no HTTP.
import OpenAI from "openai";
import type {
  ChatCompletionChunk,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from "openai/resources/chat/completions";
import { streamChunks } from "../script";
import {
  API_KEY,
  MODEL_ID,
  SYSTEM_PROMPT,
  TOOL_DESCRIPTION,
  TOOL_NAME,
  TURNS,
  lookup,
  objectiveFor,
} from "../workload";
import type { Harness, TaskFn } from "./types";

export const tools: ChatCompletionTool[] = [
  {
    type: "function",
    function: {
      name: TOOL_NAME,
      description: TOOL_DESCRIPTION,
      parameters: {
        type: "object",
        properties: { key: { type: "string" } },
        required: ["key"],
        additionalProperties: false,
      },
    },
  },
];

export type ChunkSource = (messages: ChatCompletionMessageParam[]) => Promise<AsyncIterable<ChatCompletionChunk>>;

export function handLoop(next: ChunkSource): TaskFn {
  return async (task) => {
    const messages: ChatCompletionMessageParam[] = [
      { role: "system", content: SYSTEM_PROMPT },
      { role: "user", content: objectiveFor(task) },
    ];
    for (let turn = 1; turn <= TURNS; turn++) {
      let text = "";
      const calls: { id: string; name: string; args: string }[] = [];
      let usage: ChatCompletionChunk["usage"];
      for await (const ch of await next(messages)) {
        if (ch.usage) usage = ch.usage;
        const delta = ch.choices[0]?.delta;
        if (!delta) continue;
        if (delta.content) text += delta.content;
        for (const tc of delta.tool_calls ?? []) {
          const c = (calls[tc.index] ??= { id: "", name: "", args: "" });
          if (tc.id) c.id = tc.id;
          if (tc.function?.name) c.name += tc.function.name;
          if (tc.function?.arguments) c.args += tc.function.arguments;
        }
      }
      if (!usage) throw new Error("no usage chunk");
      if (calls.length === 0) return text;
      messages.push({
        role: "assistant",
        content: text || null,
        tool_calls: calls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.args } })),
      });
      for (const c of calls) {
        const { key } = JSON.parse(c.args) as { key: string };
        messages.push({ role: "tool", tool_call_id: c.id, content: lookup(key) });
      }
    }
    throw new Error(`no final answer after ${TURNS} turns`);
  };
}

async function* fromArray(chunks: unknown[]): AsyncGenerator<ChatCompletionChunk> {
  for (const c of chunks) yield c as ChatCompletionChunk;
}

export const floor: Harness = floorWith(false);

/** Diagnostic row (`--only=floor-signal`): the floor, each call given its own AbortSignal as ours is. */
export const floorSignal: Harness = floorWith(true);

function floorWith(signal: boolean): Harness {
  return {
    label: signal ? "floor + AbortSignal per call" : "floor: openai SDK, hand loop",
    packages: ["openai"],
    async setup(mode, { baseURL }) {
      if (mode === "inproc") {
        const byTurn = Array.from({ length: TURNS }, (_, i) => streamChunks(i + 1, true));
        return handLoop(async (messages) => {
          const k = messages.filter((m) => m.role === "tool").length + 1;
          return fromArray(byTurn[k - 1]!);
        });
      }
      const client = new OpenAI({ baseURL, apiKey: API_KEY, maxRetries: 0 });
      return handLoop((messages) =>
        client.chat.completions.create(
          { model: MODEL_ID, messages, tools, stream: true, stream_options: { include_usage: true } },
          signal ? { signal: new AbortController().signal } : undefined,
        ),
      );
    },
  };
}

/**
 * Diagnostic row (`--only=floor-json`): the same turns without streaming (`stream: false`), i.e. what
 * `generateText` puts on the wire: one JSON body per turn instead of ~10–40 SSE events.
 */
export const floorJson: Harness = {
  label: "floor, non-streaming (stream: false)",
  packages: ["openai"],
  async setup(mode, { baseURL }) {
    if (mode === "inproc") return { unavailable: "n/a: the in-process floor is the streaming hand loop" };
    const client = new OpenAI({ baseURL, apiKey: API_KEY, maxRetries: 0 });
    const task: TaskFn = async (i) => {
      const messages: ChatCompletionMessageParam[] = [
        { role: "system", content: SYSTEM_PROMPT },
        { role: "user", content: objectiveFor(i) },
      ];
      for (let turn = 1; turn <= TURNS; turn++) {
        const res = await client.chat.completions.create({ model: MODEL_ID, messages, tools });
        const msg = res.choices[0]?.message;
        if (!msg || !res.usage) throw new Error("no message or usage");
        const calls = (msg.tool_calls ?? []).filter((c) => c.type === "function");
        if (calls.length === 0) return msg.content ?? "";
        messages.push({ role: "assistant", content: msg.content, tool_calls: calls });
        for (const c of calls) {
          const { key } = JSON.parse(c.function.arguments) as { key: string };
          messages.push({ role: "tool", tool_call_id: c.id, content: lookup(key) });
        }
      }
      throw new Error(`no final answer after ${TURNS} turns`);
    };
    return task;
  },
};
