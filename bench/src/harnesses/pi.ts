// pi-agent-core's Agent over pi-ai's `openai-completions` provider; in-process, pi-ai's faux provider.
import { Agent, type AgentTool } from "@mariozechner/pi-agent-core";
import {
  fauxAssistantMessage,
  fauxText,
  fauxToolCall,
  registerFauxProvider,
  type AssistantMessage,
  type Context,
  type FauxResponseFactory,
  type Model,
} from "@mariozechner/pi-ai";
import { Type } from "typebox";
import {
  API_KEY,
  FINAL_TEXT,
  MODEL_ID,
  SYSTEM_PROMPT,
  TOOL_DESCRIPTION,
  TOOL_NAME,
  TURNS,
  keyFor,
  lookup,
  objectiveFor,
} from "../workload";
import type { Harness, TaskFn } from "./types";

const parameters = Type.Object({ key: Type.String() });
const lookupTool: AgentTool<typeof parameters> = {
  name: TOOL_NAME,
  label: "Lookup",
  description: TOOL_DESCRIPTION,
  parameters,
  execute: async (_id, params) => ({ content: [{ type: "text", text: lookup(params.key) }], details: {} }),
};

function finalText(messages: readonly { role: string }[]): string {
  const last = messages[messages.length - 1] as AssistantMessage | undefined;
  if (!last || last.role !== "assistant") throw new Error("no assistant reply");
  if (last.stopReason === "error" || last.stopReason === "aborted")
    throw new Error(`pi: ${last.errorMessage ?? last.stopReason}`);
  return last.content.map((b) => (b.type === "text" ? b.text : "")).join("");
}

function agentTask(model: Model<string>): TaskFn {
  return async (task) => {
    const agent = new Agent({
      initialState: { systemPrompt: SYSTEM_PROMPT, model, tools: [lookupTool], thinkingLevel: "off" },
      getApiKey: () => API_KEY,
    });
    await agent.prompt(objectiveFor(task));
    return finalText(agent.state.messages);
  };
}

/** Scripted like the server: the turn is the count of tool results in the context. */
const fauxStep: FauxResponseFactory = (context: Context) => {
  const k = context.messages.filter((m) => m.role === "toolResult").length + 1;
  return k < TURNS
    ? fauxAssistantMessage([fauxToolCall(TOOL_NAME, { key: keyFor(k) }, { id: `call_${k}` })], {
        stopReason: "toolUse",
      })
    : fauxAssistantMessage([fauxText(FINAL_TEXT)]);
};

export const pi: Harness = {
  label: "pi-agent-core + pi-ai",
  packages: ["@mariozechner/pi-agent-core", "@mariozechner/pi-ai"],
  async setup(mode, { baseURL }) {
    if (mode === "inproc") {
      const reg = registerFauxProvider();
      // The faux queue is consumed one step per request, in request start order; keep it well ahead
      // of 256 concurrent requests.
      const refill = () => reg.appendResponses(Array.from({ length: 4096 }, () => step));
      const step: FauxResponseFactory = (...a) => {
        if (reg.getPendingResponseCount() < 2048) refill();
        return fauxStep(...a);
      };
      refill();
      return agentTask(reg.getModel());
    }
    const model: Model<"openai-completions"> = {
      id: MODEL_ID,
      name: MODEL_ID,
      api: "openai-completions",
      provider: "bench",
      baseUrl: baseURL,
      reasoning: false,
      input: ["text"],
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
      contextWindow: 128_000,
      maxTokens: 4096,
      compat: { supportsStore: false, supportsDeveloperRole: false, supportsReasoningEffort: false },
    };
    return agentTask(model);
  },
};
