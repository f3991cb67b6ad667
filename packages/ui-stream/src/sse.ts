/** The headers of an AI SDK UI message stream response (as the `ai` package's `UI_MESSAGE_STREAM_HEADERS`). */
export const UI_MESSAGE_STREAM_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "content-type": "text/event-stream",
  "cache-control": "no-cache",
  connection: "keep-alive",
  "x-vercel-ai-ui-message-stream": "v1",
  "x-accel-buffering": "no",
});

/** The headers of an AG-UI event stream over SSE. */
export const AG_UI_STREAM_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "content-type": "text/event-stream",
  "cache-control": "no-cache",
  connection: "keep-alive",
  "x-accel-buffering": "no",
});

/**
 * Values as server-sent events, one `data:` line of JSON each. `done` appends the `[DONE]` line the AI SDK's
 * stream ends with (AG-UI has none).
 */
export async function* sseLines(values: AsyncIterable<unknown>, done: boolean): AsyncGenerator<string> {
  // JSON.stringify never emits a raw newline, so each value is exactly one data line.
  for await (const value of values) yield `data: ${JSON.stringify(value)}\n\n`;
  if (done) yield "data: [DONE]\n\n";
}

/** Server-sent events as a byte stream, for a fetch `Response`; cancelling it stops reading `lines`. */
export function sseBody(lines: AsyncGenerator<string>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await lines.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await lines.return(undefined);
    },
  });
}
