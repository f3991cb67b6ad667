import type { Model } from "@x/llm-types";

/** Output room for the answer alone: the `<block>` tag and a one-sentence `<reason>`. */
export const CLASSIFIER_VERDICT_TOKENS = 256;
/** Extra room for a model whose thinking the wire cannot switch off, asked to think as little as it can. */
export const CLASSIFIER_LOW_ALLOWANCE_TOKENS = 2048;
/** Thinking room of the re-ask: a model that answered nothing has told us it thinks, so it gets room to. */
export const CLASSIFIER_THINK_ALLOWANCE_TOKENS = 8192;

/** First attempt on a model whose wire can spell thinking off: pay for the verdict only. */
export const CLASSIFIER_OFF_SEAT: { reasoning: "off"; maxTokens: number } = Object.freeze({
  reasoning: "off",
  maxTokens: CLASSIFIER_VERDICT_TOKENS,
});
/** First attempt on any other model: the least thinking it can grade, and the room that costs. */
export const CLASSIFIER_LOW_SEAT: { reasoning: "low"; maxTokens: number } = Object.freeze({
  reasoning: "low",
  maxTokens: CLASSIFIER_VERDICT_TOKENS + CLASSIFIER_LOW_ALLOWANCE_TOKENS,
});
/** The re-ask, on every model: thinking allowed, with room for it. */
export const CLASSIFIER_THINK_SEAT: { reasoning: "low"; maxTokens: number } = Object.freeze({
  reasoning: "low",
  maxTokens: CLASSIFIER_VERDICT_TOKENS + CLASSIFIER_THINK_ALLOWANCE_TOKENS,
});
export type ClassifierSeatRequest =
  typeof CLASSIFIER_OFF_SEAT | typeof CLASSIFIER_LOW_SEAT | typeof CLASSIFIER_THINK_SEAT;

/**
 * Whether the request can actually say "no thinking" to this model: it must be a reasoning model
 * whose wire has a spelling for off. A model that declares no reasoning carries nothing either way,
 * so its gateway's default decides — and a default-on gateway thinks.
 */
export function thinkingOffSpelled(model: Pick<Model, "reasoning" | "thinkingOff">): boolean {
  return model.reasoning === true && model.thinkingOff === true;
}

/**
 * The seat of a rung's FIRST attempt, read per rung (the fallback rung is another model with its own
 * wire): off + the verdict cap when thinking can be spelled off, else low + verdict cap + allowance.
 *
 * A cap here is ROOM the request asks for, not a bound the engine can vouch for: some gateways leave
 * reasoning tokens out of `max_tokens` and return far more output than asked. An over-long think is
 * therefore cut by the decider's budget (`unavailable` / `timeout`), never presumed cut by the cap.
 */
export function classifierRungSeat(model: Model): typeof CLASSIFIER_OFF_SEAT | typeof CLASSIFIER_LOW_SEAT {
  return thinkingOffSpelled(model) ? CLASSIFIER_OFF_SEAT : CLASSIFIER_LOW_SEAT;
}
