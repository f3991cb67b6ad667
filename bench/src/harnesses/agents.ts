// The OpenAI Agents SDK on its Chat Completions model (streamed runs, like the rest), tracing off.
// It ships no fake model, so it has no in-process row.
import { Agent, OpenAIProvider, Runner, setTracingDisabled, tool } from "@openai/agents";
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

export const agents: Harness = {
  label: "@openai/agents (chat completions)",
  packages: ["@openai/agents"],
  async setup(mode, { baseURL }) {
    if (mode === "inproc") return { unavailable: "n/a: the SDK ships no fake model" };
    setTracingDisabled(true);
    const runner = new Runner({
      modelProvider: new OpenAIProvider({ apiKey: API_KEY, baseURL, useResponses: false }),
      tracingDisabled: true,
    });
    const agent = new Agent({
      name: "bench",
      instructions: SYSTEM_PROMPT,
      model: MODEL_ID,
      tools: [
        tool({
          name: TOOL_NAME,
          description: TOOL_DESCRIPTION,
          parameters: z.object({ key: z.string() }),
          execute: async ({ key }) => lookup(key),
        }),
      ],
    });
    const task: TaskFn = async (i) => {
      const r = await runner.run(agent, objectiveFor(i), { stream: true, maxTurns: TURNS + 1 });
      for await (const _event of r);
      await r.completed;
      if (r.error) throw r.error instanceof Error ? r.error : new Error(String(r.error));
      return String(r.finalOutput);
    };
    return task;
  },
};
