import type { Message } from "@x/llm-types";
import type { HistoryView } from "./history-view";

/**
 * The messages array a run lends to brains that borrow their context (`Brain.borrowsContext`):
 * made at the run's first such call (or taken from a finished run of the same history) and grown
 * by what the run appended before each later one, so a call costs what was appended, not a copy of
 * the whole conversation (at 800 prior exchanges that copy was a tenth of a turn's CPU in process).
 */
export interface LentMessages {
  /** What was lent: the history's view, then `own`'s views. */
  messages: Message[];
  /** The history view it starts with. */
  view: readonly Message[];
  /** The run's own messages it holds the views of, as they were when added. */
  own: Message[];
}

function holds(lent: LentMessages, view: HistoryView, messages: readonly Message[]): boolean {
  if (lent.view !== view.view || lent.own.length > messages.length) return false;
  for (let i = 0; i < lent.own.length; i++) if (lent.own[i] !== messages[i]) return false;
  return true;
}

/**
 * The lent array for `messages` after `view`, grown by the messages added since the last call —
 * or made anew when the run's messages were replaced rather than appended to, which a borrowing
 * brain cannot see happen: it keeps nothing between calls. `viewOf` gives each own message as the
 * model is sent it.
 */
export function lendMessages(
  lent: LentMessages | undefined,
  view: HistoryView,
  messages: readonly Message[],
  viewOf: (added: readonly Message[]) => readonly Message[],
): LentMessages {
  if (lent && holds(lent, view, messages)) {
    const added = messages.slice(lent.own.length);
    append(lent.messages, viewOf(added));
    append(lent.own, added);
    return lent;
  }
  const own = messages.slice();
  const spare = spares.get(view.view);
  spares.delete(view.view);
  return { messages: spare ? append(spare, viewOf(own)) : withRoom(view.view, viewOf(own)), view: view.view, own };
}

/**
 * Gives a finished run's lent array back, cut to the history's view, for the next run of the same
 * history: a host passes its conversation on every task, and each run copied the whole of it once.
 * It is only ever handed out again for that same view array, and to one run at a time (a run that
 * finds none makes its own); a borrowing brain keeps nothing of a call, so no earlier call sees it.
 */
export function giveBack(lent: LentMessages | undefined): void {
  if (!lent || spares.has(lent.view)) return;
  lent.messages.length = lent.view.length;
  spares.set(lent.view, lent.messages);
}

/** Arrays given back, by the history view they start with; weak, so a spare never keeps a view alive. */
const spares = new WeakMap<readonly Message[], Message[]>();

function append(messages: Message[], added: readonly Message[]): Message[] {
  for (const message of added) messages.push(message);
  return messages;
}

function withRoom(view: readonly Message[], own: readonly Message[]): Message[] {
  const grown = view.concat(own, ROOM);
  grown.length -= ROOM.length;
  return grown;
}

/**
 * Room for what the run appends: `concat` makes an array of exactly its length, and the first push
 * copied it whole into a larger one (at 800 exchanges, more than the copy it replaced). Appended
 * and dropped again, these leave their slots free for the pushes; V8 keeps a shortened array's
 * storage while at least half of it is in use. Never seen: they are gone before the array is lent.
 */
const ROOM: readonly Message[] = Array.from({ length: 64 }, (): Message => ({ role: "user", content: "" }));
