import { readSse, SseSplitter, type ItemSink, type NodeFetch, type SseEventHandler } from "@x/brain-kit";
import { AnthropicError, APIError } from "@anthropic-ai/sdk";
import type { ErrorType } from "@anthropic-ai/sdk/resources/shared";

/**
 * Reads each server-sent event's JSON the way the SDK's own `Stream` reads it and hands it to
 * `sink`: a `ping` and an event without an `event:` name are skipped, an `error` event throws the
 * SDK's `APIError` with the error's `type` (a JSON body, else its text), an event with no data is
 * skipped, a malformed one throws its `SyntaxError`. Typed as the SDK types them: unchecked JSON.
 */
export function sseJson<T>(sink: ItemSink<T>, headers: Headers): SseEventHandler {
  return ({ event, data }) => {
    if (event === null || event === "ping") return true;
    if (event === "error") throw streamError(data, headers);
    return data ? sink(JSON.parse(data) as T) : true;
  };
}

/**
 * The body of a streamed SDK response, its events handed to `sink`: from its Node stream when the
 * brain's transport carried it, else from its web body (a caller's `fetch`). A byte-order mark that
 * opens a line is dropped, as the SDK drops it.
 */
export function readSdkStream<T>(response: Response, transport: NodeFetch, sink: ItemSink<T>): Promise<void> {
  const body = transport.body(response) ?? response.body;
  if (!body) throw new AnthropicError("Attempted to iterate over a response with no body");
  // The SDK keeps a leading mark in the text (and drops it as it opens the first line).
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  return readSse(body, new SseSplitter({ stripLineBom: true }), sseJson(sink, response.headers), decoder);
}

/** An `error` event as the SDK raises it: its JSON body (else its text) and the body's `error.type`. */
function streamError(data: string, headers: Headers): APIError {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    json = undefined;
  }
  const body = (json ?? data) as { error?: { type?: ErrorType } };
  return new APIError(undefined, body, undefined, headers, body.error?.type);
}
