import { emptyUsage, type AssistantMessage, type Message, type ToolCall, type ToolSpec } from "@x/llm-types";
import type { EvalCase } from "./case";

function agentTurn(call: ToolCall): AssistantMessage {
  return {
    role: "assistant",
    content: [call],
    api: "eval",
    provider: "eval",
    model: "agent",
    usage: emptyUsage(),
    stopReason: "toolUse",
    timestamp: 0,
  };
}

/**
 * A case as the runner would hand it to the decider: the user's words (no provenance: the user's),
 * the earlier steps, and the pending call last in the agent's turn; the tools it was offered.
 */
export function caseInput(item: EvalCase): { toolCall: ToolCall; transcript: Message[]; tools: ToolSpec[] } {
  const transcript: Message[] = [{ role: "user", content: item.user, timestamp: 0 }];
  item.transcript.forEach((step, index) => {
    if (step.kind === "user") transcript.push({ role: "user", content: step.text, timestamp: 0 });
    else
      transcript.push(agentTurn({ type: "toolCall", id: `step-${index}`, name: step.name, arguments: step.arguments }));
  });
  const toolCall: ToolCall = { type: "toolCall", id: "pending", name: item.call.name, arguments: item.call.arguments };
  transcript.push(agentTurn(toolCall));
  const tools = item.tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters ?? { type: "object" },
  }));
  return { toolCall, transcript, tools };
}
