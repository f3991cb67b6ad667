import type { Model, ReasoningLevel, RoleName, RoleResolution } from "@x/llm-types";

/** The answer to "which model runs this task", with the chain to fall back along. */
export interface TaskModel {
  model: Model;
  /** Tried in order when the model fails in a way retrying will not fix. */
  fallbacks: Model[];
  /** A role's `{ thinking }` preset, when the spec sets no `reasoning`. */
  thinking?: ReasoningLevel;
  via: "model" | RoleResolution["via"] | "catalog_first";
  role?: RoleName;
}
