import {
  CodedError,
  expandTierKeys,
  resolveModelRef,
  resolveRole,
  type Model,
  type ModelRef,
  type ModelRouting,
  type RoleName,
} from "@x/llm-types";
import type { TaskModel } from "../vocabulary/task-model";

export class ModelResolutionError extends CodedError<"no_model"> {
  override readonly name = "ModelResolutionError";
  constructor(message: string) {
    super("no_model", message);
  }
}

function resolveRef(routing: ModelRouting, ref: ModelRef): Model {
  // Tier words (`flash`) resolve like catalog keys, falling down to the next bound tier.
  const model = resolveModelRef(expandTierKeys(routing), ref);
  if (!model)
    throw new ModelResolutionError(
      `model "${typeof ref === "string" ? ref : ref.id}" is not in the catalog (nor a unique id or a bound tier)`,
    );
  return model;
}

/**
 * The run's MAIN model when no model is named: the `default` role (its named model, then its tier
 * row), else the catalog's first entry.
 */
export function resolveMainModel(routing: ModelRouting): TaskModel {
  const first = Object.values(routing.models)[0];
  if (!first) throw new ModelResolutionError("the model catalog is empty");
  const resolution = resolveRole(routing, "default", first);
  const via = resolution.via === "main" ? "catalog_first" : resolution.via;
  return {
    model: resolution.model,
    fallbacks: resolution.fallbacks,
    via,
    role: "default",
    ...(resolution.thinking ? { thinking: resolution.thinking } : {}),
  };
}

/**
 * ONE resolver for "which model runs this task": `spec.model` (a ref, a tier word, or a list whose
 * tail is the fallback chain) wins; else `spec.role` through llm-types' `resolveRole`, relative to
 * the main model; else the `default` role. Throws {@link ModelResolutionError} when nothing resolves.
 */
export function resolveTaskModel(
  routing: ModelRouting,
  spec: { model?: ModelRef | readonly ModelRef[]; role?: RoleName },
): TaskModel {
  if (spec.model !== undefined) {
    const refs: readonly ModelRef[] = Array.isArray(spec.model) ? spec.model : [spec.model as ModelRef];
    const [head, ...rest] = refs;
    if (head === undefined) throw new ModelResolutionError("spec.model is an empty list");
    return { model: resolveRef(routing, head), fallbacks: rest.map((ref) => resolveRef(routing, ref)), via: "model" };
  }
  const main = resolveMainModel(routing);
  const role = spec.role ?? "default";
  if (role === "default") return main;
  const resolution = resolveRole(routing, role, main.model);
  return {
    model: resolution.model,
    fallbacks: resolution.fallbacks,
    via: resolution.via,
    role,
    ...(resolution.thinking ? { thinking: resolution.thinking } : {}),
  };
}
