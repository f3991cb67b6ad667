import { CodedError } from "@x/llm-types";
import type { Tool } from "../vocabulary/define-tool";
import { ParkedRunError } from "../vocabulary/parked-run-error";
import type { RunContext } from "../state/run-context";

/**
 * A run was granted a tool by name that the host did not hand over, so it cannot be offered what it
 * was granted. Thrown before anything runs.
 */
export class ToolGrantError extends CodedError<"tool_unavailable"> {
  override readonly name = "ToolGrantError";
  constructor(
    message: string,
    /** The granted names the host's tools lack, in grant order. */
    readonly missing: readonly string[],
  ) {
    super("tool_unavailable", message);
  }
}

/**
 * The one answer to "which tools may this run be offered": exactly the tools its grant names, taken
 * from the tools the host has on hand — never more, whatever else the host holds. A fresh run's grant
 * is its spec (`toolNames`, else every tool it was given); a resumed, continued or queued run's is
 * the signed `spec.toolNames` it carries; a sub-run's is its own spec, planned by its parent's tool.
 * A granted name the host lacks is refused, never dropped: the run would not be the run that was
 * granted.
 */
export function grantTools(names: readonly string[], onHand: readonly Tool[], subject: string): Tool[] {
  const granted: Tool[] = [];
  const missing: string[] = [];
  for (const name of names) {
    const tool = onHand.find((candidate) => candidate.name === name);
    if (tool) granted.push(tool);
    else missing.push(name);
  }
  if (missing.length > 0) {
    const list = missing.map((name) => JSON.stringify(name)).join(", ");
    throw new ToolGrantError(`${subject} was granted ${list}, which the tools given here lack`, missing);
  }
  return granted;
}

/**
 * A parked or checkpointed run's signed grant, from the tools on hand: one it was granted and they
 * lack refuses the resume or continuation as `unknown_tool`, before anything is claimed or run.
 */
export function grantCarried(
  names: readonly string[],
  onHand: readonly Tool[],
  subject: string,
  detail: Record<string, unknown> = {},
): Tool[] {
  try {
    return grantTools(names, onHand, subject);
  } catch (error) {
    if (!(error instanceof ToolGrantError)) throw error;
    throw new ParkedRunError("unknown_tool", error.message, {
      ...detail,
      toolName: error.missing[0],
      missing: error.missing,
    });
  }
}

/**
 * Whether `name` is a tool this run was not granted but its host or an ancestor holds: a call to it
 * is answered `forbidden`, not `unknown_tool` — the tool exists, this run may not use it. Looked up
 * only when a call names a tool the run lacks, so a run pays nothing for it otherwise.
 */
export function isWithheld(run: Pick<RunContext, "tools" | "onHand" | "lineage">, name: string): boolean {
  for (let at: Pick<RunContext, "tools" | "onHand" | "lineage"> | undefined = run; at; at = at.lineage?.parent) {
    if (at.onHand.some((tool) => tool.name === name) || at.tools.some((tool) => tool.name === name)) return true;
  }
  return false;
}

/** The tool named `name` among `tools`, if any. */
export function findTool(tools: readonly Tool[], name: string): Tool | undefined {
  return tools.find((tool) => tool.name === name);
}
