import {
  TIERS,
  expandTierKeys,
  resolveRole,
  roleSpecNamesModel,
  safeObserve,
  tiersActive,
  type Model,
  type ModelRouting,
  type NoticeSink,
} from "@x/llm-types";
import { routesMatch } from "./route";

/**
 * Why the classifier seat is the model it is when no `classifier` role names one:
 * - `tier_below_main`: the nearest bound tier strictly below the main model's tier;
 * - `tier_table`: the static `classifier → flash` row (the main model sits on no tier);
 * - `role_fallback`: the `summarize → default` role chain (no tiers declared);
 * - `main_only`: the main model is all there is (nothing cheaper below it, or no roles at all);
 * - `role_unresolvable`: the `classifier` role named a model the catalog does not hold, so the main
 *   model stands in — announced, because a stale reference should not pass unnoticed.
 */
export const CLASSIFIER_ROLE_DEFAULT_REASONS = [
  "tier_below_main",
  "tier_table",
  "role_fallback",
  "main_only",
  "role_unresolvable",
] as const;
export type ClassifierRoleDefaultReason = (typeof CLASSIFIER_ROLE_DEFAULT_REASONS)[number];

/** Which model classifies a run, and — when no role named it — why that one. */
export type ClassifierSeat = {
  readonly model: Model;
  readonly defaulted?: ClassifierRoleDefaultReason;
};

/**
 * The one answer to "which model judges this run's gated calls". The decider's arming calls it, and
 * a host that shows the seat calls it too instead of re-deriving the pick: two derivations drift.
 *
 * 1. A `classifier` role that names a model (string ref, Model, `{ model }`, `{ select }`) ⇒ the
 *    role resolver's answer; named but missing from the catalog ⇒ the main model, `role_unresolvable`.
 *    A `{ thinking }` preset names no model and falls through.
 * 2. Tiers declared and the main model on one ⇒ the nearest tier strictly below the main's whose
 *    route differs from the main's (`tier_below_main`), or the main itself when there is none
 *    (`main_only`). The main's tier is the lowest one its route sits on. Tiers are read through the
 *    expanded catalog, so an unbound tier falls down to the next bound one and a catalog key spelled
 *    like a tier shadows the binding, exactly as the runner resolves a tier word.
 * 3. Otherwise the role resolver's fallback: the `flash` row (`tier_table`), the role chain
 *    (`role_fallback`), or the main model (`main_only`).
 *
 * The pick follows the run's main model on purpose: a classifier chosen without looking at it can
 * end up stronger than the model it is meant to be cheaper than.
 */
export function classifierSeatModel(args: { deps: ModelRouting; main: Model }): ClassifierSeat {
  const { deps, main } = args;
  const routing: ModelRouting = { models: deps.models, roles: deps.roles, tiers: deps.tiers };
  if (roleSpecNamesModel(routing.roles?.classifier)) {
    const named = resolveRole(routing, "classifier", main);
    return named.via === "role" ? { model: named.model } : { model: main, defaulted: "role_unresolvable" };
  }
  if (tiersActive(routing)) {
    const byTier = expandTierKeys(routing);
    const onTier = TIERS.map((tier) => byTier[tier]);
    let mainIndex = -1;
    onTier.forEach((model, index) => {
      if (model && routesMatch(model, main)) mainIndex = index;
    });
    if (mainIndex >= 0) {
      const below = onTier
        .slice(mainIndex + 1)
        .find((model): model is Model => model !== undefined && !routesMatch(model, main));
      return below ? { model: below, defaulted: "tier_below_main" } : { model: main, defaulted: "main_only" };
    }
  }
  const fallback = resolveRole(routing, "classifier", main);
  switch (fallback.via) {
    case "tier_table":
      return { model: fallback.model, defaulted: "tier_table" };
    case "role_fallback":
      return { model: fallback.model, defaulted: "role_fallback" };
    default:
      return { model: main, defaulted: "main_only" };
  }
}

const REASON_WORDS: Readonly<Record<ClassifierRoleDefaultReason, string>> = {
  tier_below_main: "the nearest tier below the main model",
  tier_table: "the flash tier (the main model is bound to no tier)",
  role_fallback: "the summarize/default role chain (no tiers declared)",
  main_only: "the main model itself (nothing cheaper is declared below it)",
  role_unresolvable: "the main model, because the classifier role names a model the catalog does not hold",
};

/**
 * Announces `classifier.role_defaulted` once per run, after the route pre-flight, naming the model
 * actually asked. Silent when a role named the model: nothing was defaulted.
 */
export function announceClassifierRoleDefaulted(args: {
  onNotice?: NoticeSink;
  seat: ClassifierSeat;
  sessionId?: string;
  runId?: string;
}): void {
  const { seat, sessionId, runId } = args;
  if (!seat.defaulted) return;
  safeObserve(args.onNotice, {
    code: "classifier.role_defaulted",
    audience: "operator",
    message:
      `No classifier role names a model; auto mode classifies on ${seat.model.provider}/${seat.model.id}, ` +
      `${REASON_WORDS[seat.defaulted]}.`,
    detail: { model: seat.model.id, provider: seat.model.provider, reason: seat.defaulted },
    ...(sessionId !== undefined ? { sessionId } : {}),
    ...(runId !== undefined ? { runId } : {}),
  });
}
