// Our runner's task, the same for every wire: one catalog entry for the brain, the workload's tool
// in `defineTool`, and a task that fails unless the run completed.
import { defineCatalog, type Api, type Brain } from "@x/llm-types";
import { createRunner, defineTool } from "@x/runner";
import { z } from "zod";
import { MODEL_ID, SYSTEM_PROMPT, TOOL_DESCRIPTION, TOOL_NAME, TURNS, lookup, objectiveFor } from "../workload";
import type { TaskFn } from "./types";

const lookupTool = defineTool({
  name: TOOL_NAME,
  description: TOOL_DESCRIPTION,
  input: z.object({ key: z.string() }),
  execute: ({ key }) => lookup(key),
});

/** A runner over `brain` (speaking `api`) with the bench model at `baseUrl`, and the task it runs. */
export function ourTask(brain: Brain, api: Api, baseUrl: string): TaskFn {
  const runner = createRunner({
    brains: { [api]: brain },
    models: defineCatalog({
      bench: {
        id: MODEL_ID,
        api,
        provider: "bench",
        baseUrl,
        reasoning: false,
        contextWindow: 128_000,
        maxTokens: 4096,
      },
    }),
  });
  return async (i) => {
    const r = await runner.runTask({
      objective: objectiveFor(i),
      model: "bench",
      systemPrompt: SYSTEM_PROMPT,
      tools: [lookupTool],
      maxTurns: TURNS + 1,
    });
    if (r.status !== "completed") throw new Error(`ours: ${r.status} ${r.terminal.code}: ${r.terminal.message}`);
    return r.output;
  };
}
