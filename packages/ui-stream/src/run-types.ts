import type { RunEvent, TaskResult } from "@x/runner";

/** The runner's words this package reads, named once (they come from `@x/runner`'s public types). */
export type RunStatus = TaskResult["status"];
export type ToolCallOf = Extract<RunEvent, { type: "tool_call" }>["toolCall"];
export type ToolResultOf = Extract<RunEvent, { type: "tool_result" }>["result"];
export type AssistantTurn = Extract<RunEvent, { type: "turn_end" }>["message"];
export type PathEntry = Extract<RunEvent, { type: "sub_run" }>["path"][number];
export type { ParkedRun, VerdictInfo, RunEvent, TaskResult } from "@x/runner";

/** The text a tool result gives the model: its text blocks joined (images are named, never inlined). */
export function toolResultText(result: ToolResultOf): string {
  return result.content.map((block) => (block.type === "text" ? block.text : `[image ${block.mimeType}]`)).join("");
}
