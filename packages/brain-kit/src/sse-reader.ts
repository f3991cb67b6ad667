import type { Readable } from "node:stream";
import type { SseEvent, SseSplitter } from "./sse-splitter";

/**
 * What to do with one server-sent event: `true` to go on, `false` to take no more (the rest of the
 * body is still read and dropped, so a kept-alive socket goes back to the pool). A throw ends the
 * read with that error and destroys the body.
 */
export type SseEventHandler = (event: SseEvent) => boolean;

/** What turns a web body's bytes into text (a `TextDecoder`, with the options the wire wants). */
export interface ByteDecoder {
  decode(input: Uint8Array, options: { stream: boolean }): string;
}

/**
 * Reads a response body's server-sent events as they arrive and hands each to `onEvent` in the same
 * tick as its bytes: no async iterator, generator or promise per event, which is most of what a
 * streamed call cost the client once the SDK's own decoder was out of the way. A Node stream (the
 * brains' own transport) is read from its `data` events; a web body (a caller's `fetch`) is read
 * with its reader, `decoder` undoing its bytes. Resolves when the body ends; rejects with what cut
 * it (a reset, an abort, a premature close) or with what `onEvent` threw.
 */
export function readSse(
  body: Readable | ReadableStream<Uint8Array>,
  splitter: SseSplitter,
  onEvent: SseEventHandler,
  decoder: ByteDecoder = new TextDecoder(),
): Promise<void> {
  return body instanceof ReadableStream ? readWeb(body, splitter, onEvent, decoder) : readNode(body, splitter, onEvent);
}

function readNode(body: Readable, splitter: SseSplitter, onEvent: SseEventHandler): Promise<void> {
  return new Promise((resolve, reject) => {
    let taking = true;
    let failure: Error | undefined;
    body.setEncoding("utf8");
    body.on("data", (text: string) => {
      if (!taking) return;
      try {
        taking = deliver(splitter.push(text), onEvent);
      } catch (error) {
        taking = false;
        failure = error instanceof Error ? error : new Error(String(error));
        body.destroy();
      }
    });
    // Three listeners, not `stream.finished`'s dozen: this runs once per streamed call.
    let settled = false;
    const settle = (error?: Error) => {
      if (settled) return;
      settled = true;
      const problem = failure ?? error;
      if (problem) reject(problem);
      else resolve();
    };
    body.once("end", () => settle());
    body.once("error", settle);
    body.once("close", () => settle(body.readableEnded ? undefined : prematureClose()));
  });
}

async function readWeb(
  body: ReadableStream<Uint8Array>,
  splitter: SseSplitter,
  onEvent: SseEventHandler,
  decoder: ByteDecoder,
): Promise<void> {
  const reader = body.getReader();
  let taking = true;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      if (taking) taking = deliver(splitter.push(decoder.decode(value, { stream: true })), onEvent);
    }
  } catch (error) {
    await reader.cancel().catch(() => undefined);
    throw error;
  } finally {
    reader.releaseLock();
  }
}

/** Hands `events` to `onEvent` in order; false once it wants no more. */
function deliver(events: SseEvent[], onEvent: SseEventHandler): boolean {
  for (let i = 0; i < events.length; i++) if (!onEvent(events[i]!)) return false;
  return true;
}

/** What `stream.finished` reports for a body closed before its end (a transport error, by its wording). */
function prematureClose(): Error {
  return Object.assign(new Error("Premature close"), { code: "ERR_STREAM_PREMATURE_CLOSE" });
}
