import type { TurnBuilder } from "@x/brain-kit";
import type { FauxBlock, FauxResponse } from "./response";

/** What stops a reply from the outside: the caller's signal or the request deadline. */
export class Interrupt {
  aborted = false;
  timedOut = false;
  private wake: (() => void) | undefined;
  private readonly woken: Promise<void>;

  constructor() {
    this.woken = new Promise((resolve) => (this.wake = resolve));
  }

  get stopped(): boolean {
    return this.aborted || this.timedOut;
  }

  abort(): void {
    this.aborted = true;
    this.wake?.();
  }

  timeout(): void {
    this.timedOut = true;
    this.wake?.();
  }

  /** Waits for `promise`, or until interrupted (then `undefined`): a slow responder cannot outlive the deadline. */
  async until<T>(promise: Promise<T>): Promise<T | undefined> {
    if (this.stopped) return undefined;
    return Promise.race([promise, this.woken.then(() => undefined)]);
  }

  /**
   * Ends the turn for the interruption, as the real brains do: an abort is `aborted`; a deadline
   * keeps what arrived (`partialFinalized`, `timeout`), or is an `error`/`timeout` when nothing did.
   */
  stop(turn: TurnBuilder, timeoutMs: number | undefined): void {
    if (this.aborted) turn.abort();
    else turn.cutShort("timeout", `no complete reply within ${timeoutMs ?? 0} ms`);
  }

  /** Sleeps `ms`, or less when interrupted. */
  async sleep(ms: number): Promise<void> {
    if (this.stopped) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([new Promise<void>((resolve) => (timer = setTimeout(resolve, ms))), this.woken]);
    clearTimeout(timer);
  }
}

export interface PlaySettings {
  chunkSize: number;
  chunkDelayMs: number;
  stallTimeoutMs: number;
  timeoutMs: number | undefined;
  /** Output cap in characters (tokens × 4): text beyond it ends the turn `length`. */
  budgetChars: number;
  callIndex: number;
}

/** Yield to timers now and then even with no chunk delay, so a deadline can fire mid-stream. */
const MACROTASK_EVERY = 64;

/** Streams one scripted reply through the builder. Resolves when the turn has ended. */
export async function play(
  response: FauxResponse,
  turn: TurnBuilder,
  interrupt: Interrupt,
  settings: PlaySettings,
): Promise<void> {
  let budget = settings.budgetChars;
  let chunks = 0;
  let toolCalls = 0;

  const stop = (): void => interrupt.stop(turn, settings.timeoutMs);
  const tick = async (): Promise<void> => {
    chunks++;
    if (settings.chunkDelayMs > 0) await interrupt.sleep(settings.chunkDelayMs);
    else if (chunks % MACROTASK_EVERY === 0) await new Promise<void>((resolve) => setImmediate(resolve));
    else await Promise.resolve();
  };
  /** Feeds `text` chunk by chunk; false once the turn has ended (cut, cap, abort, timeout). */
  const feed = async (text: string, send: (piece: string) => string): Promise<boolean> => {
    for (let at = 0; at < text.length;) {
      if (interrupt.stopped) {
        stop();
        return false;
      }
      if (budget <= 0) {
        turn.finish("length");
        return false;
      }
      const piece = chunkAt(text, at, Math.min(settings.chunkSize, budget));
      at += piece.length;
      budget -= piece.length;
      if (send(piece) !== "ok") return false;
      await tick();
    }
    return true;
  };

  if (response.delayMs) await interrupt.sleep(response.delayMs);
  if (interrupt.stopped) return stop();
  turn.start();
  if (response.responseId) turn.responseId(response.responseId);

  for (const block of response.content ?? []) {
    if (!(await playBlock(block))) return;
    // Each scripted block is its own content block, as a provider's block stop makes it.
    turn.closeBlock();
  }
  if (interrupt.stopped) return stop();
  if (response.usage) turn.usage(response.usage);

  const hasToolCall = (response.content ?? []).some((b) => b.type === "toolCall");
  const end = response.end ?? { type: hasToolCall ? "toolUse" : "stop" };
  switch (end.type) {
    case "stop":
    case "toolUse":
    case "length":
      turn.finish(end.type);
      return;
    case "error":
      turn.fail(
        end.errorKind,
        end.errorMessage ?? `faux ${end.errorKind} error`,
        end.retryAfterMs === undefined ? {} : { retryAfterMs: end.retryAfterMs },
      );
      return;
    case "drop":
      turn.cutShort("network", "the connection dropped mid-stream; what arrived was kept");
      return;
    case "stall":
      await interrupt.sleep(settings.stallTimeoutMs);
      if (interrupt.stopped) return stop();
      turn.cutShort("timeout", `no data for ${settings.stallTimeoutMs} ms; what arrived was kept`);
      return;
  }

  async function playBlock(block: FauxBlock): Promise<boolean> {
    switch (block.type) {
      case "text": {
        if (block.prefix && !(await feed(block.prefix, (piece) => turn.textDelta(piece)))) return false;
        const repeat = block.text === "" ? 0 : (block.repeat ?? 1);
        for (let i = 0; i < repeat; i++) {
          if (!(await feed(block.text, (piece) => turn.textDelta(piece)))) return false;
        }
        return true;
      }
      case "thinking": {
        if (!(await feed(block.thinking, (piece) => turn.thinkingDelta(piece)))) return false;
        if (block.signature !== undefined) turn.thinkingSignature(block.signature);
        return true;
      }
      case "toolCall": {
        if (interrupt.stopped) {
          stop();
          return false;
        }
        turn.toolCallStart(block.id ?? `faux_call_${settings.callIndex}_${toolCalls}`, block.name);
        toolCalls++;
        const raw = block.rawArguments ?? JSON.stringify(block.arguments ?? {});
        return feed(raw, (piece) => turn.toolCallDelta(piece));
      }
    }
  }
}

/** Up to `size` code units of `text` from `at`, never splitting a surrogate pair. */
function chunkAt(text: string, at: number, size: number): string {
  let end = Math.min(text.length, at + Math.max(1, size));
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff && end < text.length) end++;
  return text.slice(at, end);
}
