import { readFile, stat } from "node:fs/promises";
import type { ApprovalKind, TaskPathEntry } from "@x/runner";
import { displayPath, resolveInside, SandboxError } from "./sandbox/paths";
import { MAX_WRITE_BYTES } from "./sandbox/files";
import { unifiedDiff } from "./unified-diff";

/**
 * A call waiting for a person's decision, whole, as every surface shows it: the live prompt, a parked
 * run's file, `x-agent resume`, `x-agent task`, and their JSON events. Built once per decision, so what
 * a person approves is what they were shown (the runner's park signature binds the same tool, call id
 * and arguments).
 */
export interface PendingCallView {
  tool: string;
  /** The call's id: the one the park signature covers. */
  id: string;
  /** Every argument, never cut. */
  arguments: Record<string, unknown>;
  /** Why a person is asked: `ask`, `classifier_unavailable`, `denial_limit`, … */
  kind: string;
  /** The classifier's reason, when it gave one. */
  reason?: string;
  /** The delegating calls from the top-level run down to the run that made this call; empty at the top. */
  path: TaskPathEntry[];
  /** For a write onto an existing file of the sandbox: what the write changes, as a unified diff. */
  diff?: string;
  /** On kind `elicitation`: the running tool's question (its words, not the user's) and the form to fill in. */
  question?: { message: string; schema: Record<string, unknown> };
}

/** What the runner hands a live approver, and what `pendingApproval(parked)` reads out of a park. */
export interface PendingCallSource {
  toolCall: { id: string; name: string; arguments: Record<string, unknown> };
  kind: ApprovalKind;
  reason?: string;
  path?: readonly TaskPathEntry[];
  elicitation?: { message: string; schema: Record<string, unknown> };
}

/**
 * The view of a pending call; with the sandbox at hand, a `write_file` onto an existing file carries the
 * diff of the file as it is now against what the write would leave.
 */
export async function viewPendingCall(source: PendingCallSource, sandbox?: string): Promise<PendingCallView> {
  const { toolCall } = source;
  const view: PendingCallView = {
    tool: toolCall.name,
    id: toolCall.id,
    arguments: toolCall.arguments,
    kind: source.kind,
    path: [...(source.path ?? [])],
  };
  if (source.reason !== undefined) view.reason = source.reason;
  if (source.elicitation !== undefined)
    view.question = { message: source.elicitation.message, schema: source.elicitation.schema };
  const diff = sandbox === undefined ? undefined : await writeDiff(sandbox, toolCall.name, toolCall.arguments);
  if (diff !== undefined) view.diff = diff;
  return view;
}

/** The sandbox's own `write_file` onto a file that exists: the change, or a line saying why it cannot be shown. */
async function writeDiff(sandbox: string, tool: string, args: Record<string, unknown>): Promise<string | undefined> {
  const { path, content } = args;
  if (tool !== "write_file" || typeof path !== "string" || typeof content !== "string") return undefined;
  let target: string;
  try {
    target = await resolveInside(sandbox, path);
  } catch (error) {
    // The tool refuses this path itself; there is no file of the sandbox to compare with.
    if (error instanceof SandboxError) return undefined;
    throw error;
  }
  const info = await stat(target).catch(() => undefined);
  if (!info?.isFile()) return undefined;
  const name = displayPath(sandbox, target);
  if (info.size > MAX_WRITE_BYTES) {
    const size = info.size.toLocaleString("en-US");
    return `${name} holds ${size} bytes: too large to compare; the write replaces all of it`;
  }
  let before: string;
  try {
    before = await readFile(target, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "error";
    return `${name} cannot be read to compare (${code}); the write replaces it`;
  }
  return unifiedDiff(before, content, name) ?? `${name} already holds exactly this content`;
}
