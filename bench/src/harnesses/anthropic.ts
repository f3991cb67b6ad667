// The Anthropic Messages wire: a hand loop on the official `@anthropic-ai/sdk` (the SDK loop of this
// wire) and ours, `@x/runner` with `@x/brain-anthropic`, against the same loopback server.
import Anthropic from "@anthropic-ai/sdk";
import type { MessageParam, Tool as AnthropicTool } from "@anthropic-ai/sdk/resources/messages";
import { createAnthropicBrain } from "@x/brain-anthropic";
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
import { ourTask } from "./ours-task";
import type { Harness, TaskFn } from "./types";

const origin = (baseURL: string) => baseURL.replace(/\/v1$/, "");

const tools: AnthropicTool[] = [
  {
    name: TOOL_NAME,
    description: TOOL_DESCRIPTION,
    input_schema: { type: "object", properties: { key: { type: "string" } }, required: ["key"] },
  },
];

export const anthropicFloor: Harness = {
  label: "Anthropic wire: @anthropic-ai/sdk, hand loop",
  packages: ["@anthropic-ai/sdk"],
  async setup(mode, { baseURL }) {
    if (mode === "inproc") return { unavailable: "n/a: HTTP only" };
    const client = new Anthropic({ baseURL: origin(baseURL), apiKey: API_KEY, maxRetries: 0 });
    const task: TaskFn = async (i) => {
      const messages: MessageParam[] = [{ role: "user", content: objectiveFor(i) }];
      for (let turn = 1; turn <= TURNS; turn++) {
        let text = "";
        const calls: { id: string; name: string; json: string }[] = [];
        const stream = await client.messages.create({
          model: MODEL_ID,
          max_tokens: 4096,
          system: SYSTEM_PROMPT,
          messages,
          tools,
          stream: true,
        });
        for await (const ev of stream) {
          if (ev.type === "content_block_start" && ev.content_block.type === "tool_use")
            calls[ev.index] = { id: ev.content_block.id, name: ev.content_block.name, json: "" };
          else if (ev.type === "content_block_delta") {
            if (ev.delta.type === "text_delta") text += ev.delta.text;
            else if (ev.delta.type === "input_json_delta") calls[ev.index]!.json += ev.delta.partial_json;
          }
        }
        if (calls.length === 0) return text;
        messages.push({
          role: "assistant",
          content: calls.map((c) => ({
            type: "tool_use",
            id: c.id,
            name: c.name,
            input: JSON.parse(c.json) as object,
          })),
        });
        messages.push({
          role: "user",
          content: calls.map((c) => ({
            type: "tool_result",
            tool_use_id: c.id,
            content: lookup((JSON.parse(c.json) as { key: string }).key),
          })),
        });
      }
      throw new Error(`no final answer after ${TURNS} turns`);
    };
    return task;
  },
};

export const oursAnthropic: Harness = {
  label: "Anthropic wire: @x/runner + @x/brain-anthropic",
  packages: ["@x/runner", "@x/brain-anthropic"],
  async setup(mode, { baseURL }) {
    if (mode === "inproc") return { unavailable: "n/a: HTTP only" };
    return ourTask(createAnthropicBrain({ apiKey: API_KEY }), "anthropic-messages", origin(baseURL));
  },
};
