// LangGraph.js: the prebuilt `createReactAgent` on `@langchain/openai`'s ChatOpenAI, streaming (as
// an agent that shows its answer as it comes calls it). ChatOpenAI counts tokens with tiktoken after
// every streamed call and would download the encoding; it is given the one js-tiktoken ships instead,
// so the row does LangChain's real tokenizer work with no network.
import { tool } from "@langchain/core/tools";
import { createReactAgent } from "@langchain/langgraph/prebuilt";
import { ChatOpenAI, ChatOpenAICompletions, ChatOpenAIResponses } from "@langchain/openai";
import { Tiktoken } from "js-tiktoken/lite";
import o200kBase from "js-tiktoken/ranks/o200k_base";
import { z } from "zod";
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

/**
 * ChatOpenAI streaming from the loopback server, with the encoding LangChain would fetch for a
 * gpt-4o-class model taken from the js-tiktoken package. ChatOpenAI hands each call to its
 * Completions or Responses model (both public options), and each caches its own encoding in
 * `_encoding` (private in the types, so set by name).
 */
function chatModel(baseURL: string): ChatOpenAI {
  const fields = {
    model: MODEL_ID,
    apiKey: API_KEY,
    streaming: true,
    streamUsage: true,
    maxRetries: 0,
    configuration: { baseURL },
  };
  const encoding = { _encoding: new Tiktoken(o200kBase) };
  const completions = Object.assign(new ChatOpenAICompletions(fields), encoding);
  const responses = Object.assign(new ChatOpenAIResponses(fields), encoding);
  return Object.assign(new ChatOpenAI({ ...fields, completions, responses }), encoding);
}

export const langgraph: Harness = {
  label: "LangGraph createReactAgent + ChatOpenAI",
  packages: ["@langchain/langgraph", "@langchain/openai", "@langchain/core"],
  async setup(mode, { baseURL }) {
    if (mode === "inproc") return { unavailable: "n/a: not measured in-process (HTTP rows only)" };
    const agent = createReactAgent({
      llm: chatModel(baseURL),
      prompt: SYSTEM_PROMPT,
      tools: [
        tool(async ({ key }: { key: string }) => lookup(key), {
          name: TOOL_NAME,
          description: TOOL_DESCRIPTION,
          schema: z.object({ key: z.string() }),
        }),
      ],
    });
    const task: TaskFn = async (i) => {
      // Each turn is two graph steps (model, tools); the answer is one more.
      const out = await agent.invoke(
        { messages: [{ role: "user", content: objectiveFor(i) }] },
        { recursionLimit: 2 * TURNS + 2 },
      );
      const last = out.messages.at(-1);
      if (!last || typeof last.content !== "string") throw new Error("langgraph: no text answer");
      return last.content;
    };
    return task;
  },
};
