import type { Message } from "@x/llm-types";

/** Message arrays a caller vouched for; weak, so a vouch never keeps an array alive. */
const vouched = new WeakSet<readonly Message[]>();

/**
 * Tells every brain on `@x/brain-kit` that `messages` holds well-formed messages only, so the
 * shape check each call makes of its context (a cost that grows with the conversation, paid on
 * every turn) is skipped for it. For callers that built or checked every entry themselves, as the
 * runner does for each context it sends. Identity, not content: the vouch is for the array as it
 * is now; a caller that changes it afterwards answers for the change. An array from another copy
 * of this package is not vouched for and is simply checked.
 */
export function vouchMessages(messages: readonly Message[]): void {
  vouched.add(messages);
}

/** True when {@link vouchMessages} was called with this very array. */
export function isVouched(messages: unknown): boolean {
  return Array.isArray(messages) && vouched.has(messages);
}
