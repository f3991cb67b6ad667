import type { AssistantMessage } from "@x/llm-types";

/** Final messages of TurnBuilder turns; weak, so a brand never keeps a message alive. */
const built = new WeakSet<AssistantMessage>();

/** Brands a message a TurnBuilder ender returned. Internal: not exported from the package. */
export function markBuiltTurn(message: AssistantMessage): void {
  built.add(message);
}

/**
 * True when `message` is the final message of a `TurnBuilder` turn (any brain built on
 * `@x/brain-kit`). The builder makes schema-valid messages by construction (its tests parse
 * every ender's output with `AssistantMessageSchema`), so a caller may skip re-validating them.
 * The brand is identity, not content: a consumer that mutates a built message afterwards keeps
 * the brand, so skipping is only sound where the message comes straight from the brain, as the
 * runner's check does (it validates a brain's output, not later edits). A message from another
 * copy of this package (a CJS/ESM pair) is not branded and is simply validated.
 */
export function isBuiltTurn(message: unknown): boolean {
  return typeof message === "object" && message !== null && built.has(message as AssistantMessage);
}
