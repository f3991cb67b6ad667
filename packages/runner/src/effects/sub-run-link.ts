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

/**
 * The key the link rides under on the ToolContext the runner hands to `execute`: the context holds
 * it as its own data (a copy a tool spreads keeps it), so a tool can only start a child of the run
 * that is calling it, and the link never shows on the public ToolContext type.
 */
const SUB_RUN_LINK = Symbol("x.subRunLink");

/** A ToolContext as the runner makes it: the public fields, and the run that calls the tool. */
export type LinkedToolContext = ToolContext & { readonly [SUB_RUN_LINK]?: SubRunLink };

/**
 * The context `execute` gets, carrying `link` when there is one: `context`, a fresh object the
 * caller made for this call, takes the link as its own. Set on it rather than spread into a copy:
 * on Node 20 a property added after a spread costs a new hidden class per tool call.
 */
export function linkedToolContext(context: ToolContext, link: SubRunLink | undefined): LinkedToolContext {
  if (link) (context as { [SUB_RUN_LINK]?: SubRunLink })[SUB_RUN_LINK] = link;
  return context;
}

export function linkOf(context: LinkedToolContext): SubRunLink | undefined {
  return context[SUB_RUN_LINK];
}
