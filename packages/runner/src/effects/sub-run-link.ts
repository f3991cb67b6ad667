import type { ToolCall } from "@x/llm-types";
import type { ToolContext } from "../vocabulary/define-tool";
import type { RunContext } from "../state/run-context";

/** What a tool's `execute` needs to start a child of the run that called it. */
export interface SubRunLink {
  parent: RunContext;
  toolCall: ToolCall;
  /** The tool call's span, under which a child's run span opens. */
  toolSpan: string;
  /** The calling tool runs in parallel with others: a child of it cannot park the run. */
  readOnly: boolean;
}

// Keyed by the ToolContext object the runner handed to `execute`: a tool can only start a child of
// the run that is calling it right now, and the link never shows on the public ToolContext type.
const links = new WeakMap<ToolContext, SubRunLink>();

export function linkToolContext(context: ToolContext, link: SubRunLink): void {
  links.set(context, link);
}

export function linkOf(context: ToolContext): SubRunLink | undefined {
  return links.get(context);
}
