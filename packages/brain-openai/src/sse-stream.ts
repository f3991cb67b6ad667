import type { ItemSink, SseEventHandler } from "@x/brain-kit";
import { APIError } from "openai";

/** What a brain hears of the stream besides its events. */
export interface SseJsonHooks<T> {
  /** The stream reached `data: [DONE]` (called once; the rest of the body is read and dropped). */
  onDone?(): void;
  /** An event that carries `error`, before it is thrown: whatever else it says (its usage) is read first. */
  beforeError?(event: T): void;
}

/**
 * Reads each server-sent event's JSON the way the SDK's own `Stream` reads it and hands it to
 * `sink`: everything after `[DONE]` is dropped, an event that carries `error` throws the SDK's
 * `APIError` (with the response's headers), a malformed one its `SyntaxError`. Typed as the SDK
 * types them: unchecked JSON, as the SDK yields it.
 */
export function sseJson<T>(sink: ItemSink<T>, headers: () => Headers, hooks: SseJsonHooks<T> = {}): SseEventHandler {
  return ({ data }) => {
    if (data.startsWith("[DONE]")) {
      hooks.onDone?.();
      return false;
    }
    const json = JSON.parse(data) as { error?: unknown } | null;
    if (json?.error) {
      hooks.beforeError?.(json as T);
      throw new APIError(undefined, json.error, undefined, headers());
    }
    return sink(json as T);
  };
}
