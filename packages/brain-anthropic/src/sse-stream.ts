import { SseSplitter, type NodeFetch } from "@x/brain-kit";
import { AnthropicError, APIError } from "@anthropic-ai/sdk";
import type { ErrorType } from "@anthropic-ai/sdk/resources/shared";

/**
 * The JSON events of a streamed SDK response, read the way the SDK's own `Stream` reads them: a
 * `ping` and an event without an `event:` name are skipped, an `error` event throws the SDK's
 * `APIError` with the error's `type` (a JSON body, else its text), an event with no data is
 * skipped, a malformed one throws its `SyntaxError`, and a byte-order mark that opens a line is
 * dropped. A response from the brain's node fetch is read from its Node stream; one from a
 * caller's `fetch`, from its web body. Typed as the SDK types them: unchecked JSON, as it yields it.
 */
export async function* sseJson<T>(response: Response, transport: NodeFetch): AsyncGenerator<T> {
  const node = transport.body(response);
  node?.setEncoding("utf8");
  const source: AsyncIterable<string | Uint8Array> | null = node ?? response.body;
  if (!source) throw new AnthropicError("Attempted to iterate over a response with no body");
  const splitter = new SseSplitter({ stripLineBom: true });
  // The SDK keeps a leading mark in the text (and drops it as it opens the first line).
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  for await (const piece of source) {
    const events = splitter.push(typeof piece === "string" ? piece : decoder.decode(piece, { stream: true }));
    for (const { event, data } of events) {
      if (event === null || event === "ping") continue;
      if (event === "error") throw streamError(data, response.headers);
      if (data) yield JSON.parse(data) as T;
    }
  }
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
