import { describeIssues, MessageSchema, SchemaValidationError, type Message } from "@x/llm-types";

/**
 * Messages whose shape is already known good, so a history passed back on every call is not
 * re-checked whole each time (its cost would grow with the conversation):
 * - the messages of a result carry a hidden brand: a non-enumerable symbol property, invisible
 *   to JSON, `structuredClone`, spreads and equality checks, and lost by any copy — a property
 *   read is what makes the check cheap enough to do for every entry on every call;
 * - a host's own messages are never touched: the ones that passed `MessageSchema` once are
 *   remembered in a WeakSet (slower to ask, but few of a history's entries are the host's own).
 * Identity, not content: a host that edits a message after it was returned or checked answers
 * for the edit, as it would for any object it owns.
 */
const KNOWN: unique symbol = Symbol("x.runner.known-message");
const checked = new WeakSet<object>();

/** Brands the messages of a result the runner hands out (it built or checked every one). */
export function markKnown(messages: readonly Message[]): void {
  for (const message of messages) {
    if ((message as { [KNOWN]?: true })[KNOWN]) continue;
    if (Object.isExtensible(message)) Object.defineProperty(message, KNOWN, { value: true });
    else checked.add(message);
  }
}

function isKnown(message: unknown): boolean {
  return (
    typeof message === "object" &&
    message !== null &&
    ((message as { [KNOWN]?: true })[KNOWN] === true || checked.has(message))
  );
}

/**
 * Checks every history entry not known yet with `MessageSchema`, without copying any, and
 * remembers the ones that pass (from index `from` on: those before were checked already). Throws a
 * {@link SchemaValidationError} naming `history[i]`'s fields.
 */
export function checkHistory(history: readonly unknown[], subject: string, from = 0): void {
  for (let i = from; i < history.length; i++) {
    const message = history[i];
    if (isKnown(message)) continue;
    const parsed = MessageSchema.safeParse(message);
    if (!parsed.success) {
      const issues = describeIssues(parsed.error).map((issue) => ({
        path: `history[${i}]${issue.path === "" || issue.path.startsWith("[") ? "" : "."}${issue.path}`,
        message: issue.message,
      }));
      throw new SchemaValidationError(subject, issues);
    }
    checked.add(message as object);
  }
}
