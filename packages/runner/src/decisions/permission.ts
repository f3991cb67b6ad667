import type { ToolSpec } from "@x/llm-types";
import type { Tool } from "../vocabulary/define-tool";
import type { RunContext } from "../state/run-context";
import { findTool } from "./tool-grant";
import { PERMISSIONS, type Permission } from "../vocabulary/types";

/**
 * The spec's word for this tool, then the tool's own default, then the spec default, then `allow`.
 * Only the map's OWN keys count: a tool named `constructor` or `toString` must not pick up
 * `Object.prototype`'s members. A value outside the closed set (a hand-made tool's typo) reads as
 * `ask`, the strictest permission: a person decides.
 */
export function permissionFor(
  spec: { permissions?: Readonly<Record<string, Permission>>; defaultPermission?: Permission },
  tool: Pick<Tool, "name" | "permission">,
): Permission {
  const named =
    spec.permissions && Object.hasOwn(spec.permissions, tool.name) ? spec.permissions[tool.name] : undefined;
  const permission: unknown = named ?? tool.permission ?? spec.defaultPermission ?? "allow";
  return (PERMISSIONS as readonly unknown[]).includes(permission) ? (permission as Permission) : "ask";
}

/**
 * Strictness, lowest first: a person deciding is stricter than a classifier, which is stricter than
 * none; a tool the host forbids is stricter than all of them, so a `deny` anywhere above holds below.
 */
const STRICTNESS: Readonly<Record<Permission, number>> = { allow: 0, auto: 1, ask: 2, deny: 3 };

/**
 * The permission a call gets in this run: the run's own word for the tool, narrowed by every
 * ancestor's word for the same tool name — for a tool the ancestor does not have, its `permissions`
 * entry or its `defaultPermission` (a new tool's own default cannot lift it above the ancestor's
 * floor). A child can make a call stricter, never looser.
 */
export function effectivePermission(ctx: Pick<RunContext, "spec" | "lineage">, tool: Tool): Permission {
  let permission = permissionFor(ctx.spec, tool);
  for (let at = ctx.lineage?.parent; at; at = at.lineage?.parent) {
    const theirs = permissionFor(at.spec, findTool(at.tools, tool.name) ?? { name: tool.name });
    if (STRICTNESS[theirs] > STRICTNESS[permission]) permission = theirs;
  }
  return permission;
}

/** The tools the model is offered: every tool but those denied here or by any ancestor. */
export function offeredToolSpecs(ctx: Pick<RunContext, "spec" | "lineage">, tools: readonly Tool[]): ToolSpec[] {
  return tools.filter((tool) => effectivePermission(ctx, tool) !== "deny").map((tool) => tool.spec);
}
