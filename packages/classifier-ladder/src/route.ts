import { sameRoute, type Model } from "@x/llm-types";

/**
 * Route equality that reads an un-normalisable catalog value (a non-string `baseUrl`, which the
 * identity law throws on) as DIFFERENT. Being wrong that way costs one extra rung on a broken
 * catalog; the other way would silently merge a healthy endpoint with a broken one. The bad value
 * still fails loudly at the brain's request gate.
 */
export function routesMatch(a: Model, b: Model): boolean {
  try {
    return sameRoute(a, b);
  } catch {
    return false;
  }
}
