/**
 * What a Responses API stream said of one part (an answer text, a function call's arguments, a
 * reasoning summary), streamed and then finished. Deltas are for showing the text as it comes; the
 * finished text (`*.done`, `response.output_item.done`, the final response's `output`) is the part
 * itself, and hosts send deltas that stop short of it (a recorded gpt-5.3-codex stream has two of
 * each message's deltas and the whole 1,485-character answer only in its `done` events).
 */
export type Settled =
  /** The finished text begins with what was streamed: `rest` (maybe "") is what the deltas left out. */
  | { kind: "rest"; rest: string }
  /** The part was finished before: nothing more to add. */
  | { kind: "settled" }
  /** The finished text does not begin with what was streamed: the stream cannot be trusted. */
  | { kind: "mismatch"; streamed: number; finished: number };

/**
 * The text streamed per part, and which parts are finished. A part is named by its place in the
 * response (output index, content or summary index), never by the item id: GitHub Copilot's
 * endpoint sends a new item id on every event.
 */
export class FinishedText {
  private readonly streamed = new Map<string, string>();
  private readonly settled = new Set<string>();

  /** Records a delta of `part`. */
  add(part: string, delta: string): void {
    this.streamed.set(part, (this.streamed.get(part) ?? "") + delta);
  }

  /** True when something was streamed for `part`. */
  has(part: string): boolean {
    return this.streamed.has(part);
  }

  /** Holds `part`'s streamed text against its finished text, once; later finishes of it add nothing. */
  settle(part: string, finished: string): Settled {
    if (this.settled.has(part)) return { kind: "settled" };
    this.settled.add(part);
    const streamed = this.streamed.get(part) ?? "";
    if (!finished.startsWith(streamed)) {
      return { kind: "mismatch", streamed: streamed.length, finished: finished.length };
    }
    this.streamed.set(part, finished);
    return { kind: "rest", rest: finished.slice(streamed.length) };
  }
}

/** The name of a content part of the output item at `output`. */
export const contentPart = (output: number, content: number) => `${output}:c${content}`;
/** The name of a reasoning summary part of the output item at `output`. */
export const summaryPart = (output: number, summary: number) => `${output}:s${summary}`;
/** The name of a function call's arguments, the output item at `output`. */
export const argumentsPart = (output: number) => `${output}:args`;
