import { SseSplitter, type NodeFetch } from "@x/brain-kit";
import { APIError, OpenAIError } from "openai";

/** What a brain hears of the stream besides its events. */
export interface SseJsonHooks<T> {
  /** The stream reached `data: [DONE]` (called once, before the body is drained). */
  onDone?(): void;
  /** An event that carries `error`, before it is thrown: whatever else it says (its usage) is read first. */
  beforeError?(event: T): void;
}

/**
 * The JSON events of a streamed SDK response, read the way the SDK's own `Stream` reads them:
 * everything after `[DONE]` is skipped (but read, so the socket goes back to the pool), an event
 * that carries `error` throws the SDK's `APIError`, a malformed one its `SyntaxError`. A response
 * from the brain's node fetch is read from its Node stream; one from a caller's `fetch`, from its
 * web body. Typed as the SDK types them: unchecked JSON, as the SDK yields it.
 */
export async function* sseJson<T>(
  response: Response,
  transport: NodeFetch,
  hooks: SseJsonHooks<T> = {},
): AsyncGenerator<T> {
  const node = transport.body(response);
  node?.setEncoding("utf8");
  const source: AsyncIterable<string | Uint8Array> | null = node ?? response.body;
  if (!source) throw new OpenAIError("Attempted to iterate over a response with no body");
  const splitter = new SseSplitter();
  const decoder = new TextDecoder();
  let done = false;
  for await (const piece of source) {
    if (done) continue;
    const events = splitter.push(typeof piece === "string" ? piece : decoder.decode(piece, { stream: true }));
    for (let i = 0; i < events.length && !done; i++) {
      const { data } = events[i]!;
      if (data.startsWith("[DONE]")) {
        done = true;
        hooks.onDone?.();
        break;
      }
      const json = JSON.parse(data) as { error?: unknown } | null;
      if (json?.error) {
        hooks.beforeError?.(json as T);
        throw new APIError(undefined, json.error, undefined, response.headers);
      }
      yield json as T;
    }
  }
}
