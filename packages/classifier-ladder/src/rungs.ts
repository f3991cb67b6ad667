import type { Model } from "@x/llm-types";
import { ClassifierConfigError } from "./errors";
import { routesMatch } from "./route";

/** What happens when the classifier seat cannot rule: ask the run's main model, or give up. */
export const AUTO_MODE_CLASSIFIER_FALLBACKS = ["main", "none"] as const;
export type AutoModeClassifierFallback = (typeof AUTO_MODE_CLASSIFIER_FALLBACKS)[number];

/**
 * Screens the `classifierFallback` knob: absent ⇒ `"main"`; `"main"` / `"none"` as given; anything
 * else is a {@link ClassifierConfigError} (`config.auto_mode_classifier_fallback_invalid`) rather
 * than a quiet reading as the default. Idempotent, so every reader of the knob may call it.
 */
export function autoModeClassifierFallbackOf(knob: unknown): AutoModeClassifierFallback {
  if (knob === undefined) return "main";
  if (knob === "main" || knob === "none") return knob;
  throw new ClassifierConfigError(
    "config.auto_mode_classifier_fallback_invalid",
    `classifierFallback must be "main" or "none", got ${describe(knob)}`,
    knob,
  );
}

function describe(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (value === null) return "null";
  return typeof value;
}

/**
 * The models a classification walks, in order: the classifier seat, then — under `"main"` — the
 * run's main model. One rung when both are the same ROUTE (provider + api + normalised baseUrl + id,
 * not the bare `Model.id`): asking the same endpoint twice is a retry, not a fallback, while two
 * entries sharing an id may well point at different endpoints. A `baseUrl` the identity law cannot
 * normalise reads as two rungs (see {@link routesMatch}).
 */
export function classifierLadderRungs(knob: unknown, classifier: Model, main: Model): readonly Model[] {
  const fallback = autoModeClassifierFallbackOf(knob);
  if (fallback === "none" || routesMatch(classifier, main)) return [classifier];
  return [classifier, main];
}
