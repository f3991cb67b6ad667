import type { ReasoningLevel } from "./brain";
import { resolveModelRef, type ModelCatalog, type ModelRef } from "./catalog";
import type { Model } from "./model";

/** Jobs a model can be bound to. `advisor` is the teacher; `helper` the cheap monitor/verifier. */
export const ROLE_NAMES = ["default", "classifier", "advisor", "summarize", "helper"] as const;
export type RoleName = (typeof ROLE_NAMES)[number];

/** Model tiers from strongest to cheapest. */
export const TIERS = ["max", "pro", "flash", "lite"] as const;
export type Tier = (typeof TIERS)[number];

/**
 * How a role is bound:
 * - a model ref string or a Model;
 * - several refs — the first is the model, the rest a fallback chain on provider failure;
 * - `{ model }` (optionally with `fallbacks` and a `thinking` preset);
 * - `{ select }` — a function choosing from the catalog;
 * - `{ thinking }` alone — a preset that names NO model: the role's reasoning level only.
 */
export type RoleSpec =
  | ModelRef
  | readonly ModelRef[]
  | { model: ModelRef; fallbacks?: readonly ModelRef[]; thinking?: ReasoningLevel }
  | { select: (models: readonly Model[]) => Model | undefined; thinking?: ReasoningLevel }
  | { thinking: ReasoningLevel };

export type Roles = Partial<Record<RoleName, RoleSpec>>;
export type TierBindings = Partial<Record<Tier, ModelRef>>;

/** What the host declares about its models: the catalog, role bindings and tier bindings. */
export interface ModelRouting {
  models: ModelCatalog;
  roles?: Roles;
  tiers?: TierBindings;
}

/** The tier each role reads when tiers are declared and the role names no model. */
export const ROLE_TIER_TABLE: Readonly<Record<RoleName, Tier>> = {
  default: "pro",
  classifier: "flash",
  advisor: "max",
  summarize: "flash",
  helper: "lite",
};

/** True when a role spec names a model (every form except the `{ thinking }` preset). */
export function roleSpecNamesModel(spec: RoleSpec | undefined): boolean {
  if (spec === undefined) return false;
  if (typeof spec === "string" || Array.isArray(spec)) return true;
  if (typeof spec !== "object" || spec === null) return false;
  return "id" in spec || "model" in spec || "select" in spec;
}

/** The reasoning preset a role spec carries, if any. */
export function roleSpecThinking(spec: RoleSpec | undefined): ReasoningLevel | undefined {
  if (spec && typeof spec === "object" && !Array.isArray(spec) && "thinking" in spec) return spec.thinking;
  return undefined;
}

/**
 * The models a role spec names, primary first, resolved against the catalog. An unresolvable
 * ref yields `undefined` in its slot so callers can tell "named but stale" from "not named".
 */
export function roleSpecModels(catalog: ModelCatalog, spec: RoleSpec): Array<Model | undefined> {
  if (typeof spec === "string") return [resolveModelRef(catalog, spec)];
  if (Array.isArray(spec)) return (spec as readonly ModelRef[]).map((ref) => resolveModelRef(catalog, ref));
  if ("id" in spec) return [spec];
  if ("model" in spec) return [spec.model, ...(spec.fallbacks ?? [])].map((ref) => resolveModelRef(catalog, ref));
  if ("select" in spec) return [spec.select(Object.values(catalog))];
  return [];
}

/**
 * The catalog with a key per tier word: each bound tier maps to its model; an unbound tier falls
 * DOWN to the next bound tier (cheaper), and if none is below, up to the nearest bound one. A
 * catalog key spelled like a tier shadows the binding. No tiers declared ⇒ the catalog unchanged.
 */
export function expandTierKeys(routing: Pick<ModelRouting, "models" | "tiers">): ModelCatalog {
  const { models, tiers } = routing;
  if (!tiers || Object.keys(tiers).length === 0) return models;
  const bound = new Map<Tier, Model>();
  for (const tier of TIERS) {
    const ref = tiers[tier];
    const model = ref === undefined ? undefined : resolveModelRef(models, ref);
    if (model) bound.set(tier, model);
  }
  if (bound.size === 0) return models;
  const expanded: Record<string, Model> = {};
  TIERS.forEach((tier, index) => {
    const below = TIERS.slice(index).find((t) => bound.has(t));
    const above = [...TIERS.slice(0, index)].reverse().find((t) => bound.has(t));
    const pick = bound.get((below ?? above)!);
    if (pick) expanded[tier] = pick;
  });
  return { ...expanded, ...models };
}

/** True when the routing declares at least one tier binding that resolves. */
export function tiersActive(routing: Pick<ModelRouting, "models" | "tiers">): boolean {
  return (
    routing.tiers !== undefined &&
    TIERS.some(
      (t) => routing.tiers?.[t] !== undefined && resolveModelRef(routing.models, routing.tiers[t]) !== undefined,
    )
  );
}

/** How {@link resolveRole} reached its answer. */
export type RoleResolution =
  | { via: "role"; model: Model; fallbacks: Model[]; thinking?: ReasoningLevel }
  | { via: "role_unresolvable"; model: Model; fallbacks: Model[]; thinking?: ReasoningLevel }
  | { via: "tier_table"; tier: Tier; model: Model; fallbacks: Model[]; thinking?: ReasoningLevel }
  | { via: "role_fallback"; from: RoleName; model: Model; fallbacks: Model[]; thinking?: ReasoningLevel }
  | { via: "main"; model: Model; fallbacks: Model[]; thinking?: ReasoningLevel };

/** Roles that stand in, in order, for a role that names no model and has no tier row to read. */
const ROLE_FALLBACK_CHAIN: Readonly<Record<RoleName, readonly RoleName[]>> = {
  default: [],
  classifier: ["summarize", "default"],
  summarize: ["default"],
  helper: ["summarize", "default"],
  advisor: ["default"],
};

/**
 * The one role resolver: which model serves `role` in a run whose main model is `main`.
 * 1. The role names a model that resolves ⇒ that model (with its fallback chain) — `role`.
 *    Named but unresolvable ⇒ the main model — `role_unresolvable` (never silent: callers announce it).
 * 2. Tiers declared ⇒ the role's tier row through the expanded catalog — `tier_table`.
 * 3. The role fallback chain (`classifier → summarize → default`) — `role_fallback`.
 * 4. The main model — `main`.
 * The role's `{ thinking }` preset rides along in every branch.
 */
export function resolveRole(routing: ModelRouting, role: RoleName, main: Model): RoleResolution {
  const spec = routing.roles?.[role];
  const thinking = roleSpecThinking(spec);
  const withThinking = <R extends RoleResolution>(r: R): R => (thinking ? { ...r, thinking } : r);
  if (spec !== undefined && roleSpecNamesModel(spec)) {
    const [primary, ...rest] = roleSpecModels(routing.models, spec);
    const fallbacks = rest.filter((m): m is Model => m !== undefined);
    if (primary) return withThinking({ via: "role", model: primary, fallbacks });
    return withThinking({ via: "role_unresolvable", model: main, fallbacks: [] });
  }
  if (tiersActive(routing)) {
    const tier = ROLE_TIER_TABLE[role];
    const model = expandTierKeys(routing)[tier];
    if (model) return withThinking({ via: "tier_table", tier, model, fallbacks: [] });
  }
  for (const from of ROLE_FALLBACK_CHAIN[role]) {
    const fromSpec = routing.roles?.[from];
    if (fromSpec !== undefined && roleSpecNamesModel(fromSpec)) {
      const [primary, ...rest] = roleSpecModels(routing.models, fromSpec);
      if (primary)
        return withThinking({
          via: "role_fallback",
          from,
          model: primary,
          fallbacks: rest.filter((m): m is Model => m !== undefined),
        });
    }
  }
  return withThinking({ via: "main", model: main, fallbacks: [] });
}
