import { z } from "zod/v4";
import { ModelSchema, type Model, type ModelInput } from "./model";
import { parseWith } from "./parse";

/** Models by the key hosts refer to them with (`openai/gpt-4.1-mini`, `student`, ...). */
export type ModelCatalog = Readonly<Record<string, Model>>;

/** A model named by catalog key, by `provider/id`, by a bare id unique in the catalog, or given whole. */
export type ModelRef = string | Model;

/** Validates and fills defaults of a host-declared catalog; throws naming the bad key and field. */
export function defineCatalog(models: Record<string, ModelInput>): ModelCatalog {
  return parseWith(z.record(z.string().min(1), ModelSchema), models, "model catalog");
}

/** Fills defaults of one host-declared model; throws naming the bad field. */
export function defineModel(model: ModelInput): Model {
  return parseWith(ModelSchema, model, "model");
}

/**
 * Resolves a reference against the catalog: a Model is returned as is; a string is tried as a
 * catalog key, then `provider/id`, then a bare id that exactly one entry carries. Undefined when
 * nothing (or more than one model, for a bare id) matches — the caller decides how loud to be.
 */
export function resolveModelRef(catalog: ModelCatalog, ref: ModelRef): Model | undefined {
  if (typeof ref !== "string") return ref;
  // Own keys only: a ref spelled like a prototype member ("constructor") is not a model.
  const byKey = Object.hasOwn(catalog, ref) ? catalog[ref] : undefined;
  if (byKey) return byKey;
  const models = Object.values(catalog);
  const slash = ref.indexOf("/");
  if (slash > 0) {
    const provider = ref.slice(0, slash);
    const id = ref.slice(slash + 1);
    const hit = models.find((m) => m.provider === provider && m.id === id);
    if (hit) return hit;
  }
  const byId = models.filter((m) => m.id === ref);
  return byId.length === 1 ? byId[0] : undefined;
}
