// Mastra: `Agent` from `@mastra/core` with its OpenAI-compatible model config pointed at the
// loopback server, streamed (`agent.stream`). Mastra's usage telemetry is off (it would post to
// PostHog), as a bench run has no network beyond loopback.
import { Agent } from "@mastra/core/agent";
import { createTool } from "@mastra/core/tools";
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

export const mastra: Harness = {
  label: "Mastra Agent (stream)",
  packages: ["@mastra/core"],
  async setup(mode, { baseURL }) {
    if (mode === "inproc") return { unavailable: "n/a: not measured in-process (HTTP rows only)" };
    process.env.MASTRA_TELEMETRY_DISABLED = "1";
    const agent = new Agent({
      id: "bench",
      name: "bench",
      instructions: SYSTEM_PROMPT,
      model: { providerId: "bench", modelId: MODEL_ID, url: baseURL, apiKey: API_KEY },
      tools: {
        [TOOL_NAME]: createTool({
          id: TOOL_NAME,
          description: TOOL_DESCRIPTION,
          inputSchema: z.object({ key: z.string() }),
          execute: async ({ key }) => lookup(key),
        }),
      },
    });
    const task: TaskFn = async (i) => {
      const r = await agent.stream(objectiveFor(i), { maxSteps: TURNS + 1 });
      const text = await r.text;
      const error = r.error;
      if (error) throw error instanceof Error ? error : new Error(String(error));
      return text;
    };
    return task;
  },
};
