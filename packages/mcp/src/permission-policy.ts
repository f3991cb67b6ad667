import type { Permission } from "@x/runner";
import type { McpPolicy } from "./server-config";

/** What a server says about a tool (MCP's `ToolAnnotations`): hints its author wrote, nothing more. */
export interface ToolHints {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
}

/** A tool's permission, whether it may run in parallel and whether a call may run twice, as the policy rules. */
export interface ToolClearance {
  permission: Permission;
  /** Runs in parallel with other read-only calls of the same turn. */
  readOnly: boolean;
  /** The same call run again changes nothing more (the runner's `idempotent`). */
  idempotent: boolean;
}

/**
 * The one rule for an MCP tool's permission. A per-tool entry of the host wins. Otherwise, with
 * annotations `untrusted` (the default) the hints are ignored and every tool takes the server's
 * `default` (`auto`); with `trusted`, a tool hinting read-only and not destructive takes `readOnly`
 * (`allow`). Hints only ever tighten: a tool hinting destructive is never allowed by a server-wide
 * word, whatever else it claims. A trusted `idempotentHint` (on a tool not hinting read-only) makes
 * the tool `idempotent`: its results ride with the next checkpoint unless its call was ruled on, and
 * a crash before it runs the same call again.
 */
export function clearTool(tool: string, hints: ToolHints | undefined, policy: McpPolicy | undefined): ToolClearance {
  const trusted = policy?.annotations === "trusted";
  const claimsReadOnly = hints?.readOnlyHint === true && hints.destructiveHint !== true;
  const readOnly = trusted && claimsReadOnly;
  // MCP gives `idempotentHint` a meaning only for a tool that is not read-only; a tool claiming
  // both is taken at its worse word, as for `destructiveHint`.
  const idempotent = trusted && hints?.readOnlyHint !== true && hints?.idempotentHint === true;
  return { permission: permissionOf(tool, hints, policy, readOnly), readOnly, idempotent };
}

function permissionOf(
  tool: string,
  hints: ToolHints | undefined,
  policy: McpPolicy | undefined,
  readOnly: boolean,
): Permission {
  const named = policy?.tools && Object.hasOwn(policy.tools, tool) ? policy.tools[tool] : undefined;
  if (named) return named;
  const fallback = policy?.default ?? "auto";
  if (readOnly) return policy?.readOnly ?? "allow";
  if (hints?.destructiveHint === true && fallback === "allow") return "auto";
  return fallback;
}
