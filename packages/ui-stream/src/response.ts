import type { ServerResponse } from "node:http";
import { toAgUiEvents, type AgUiOptions } from "./ag-ui-events";
import { AG_UI_STREAM_HEADERS, sseBody, sseLines, UI_MESSAGE_STREAM_HEADERS } from "./sse";
import { toUIMessageChunks, type UIMessageStreamOptions } from "./ui-message-stream";
import type { RunEvent } from "./run-types";

/** The HTTP side of a streamed response. */
export interface StreamResponseInit {
  /** Default 200. */
  status?: number;
  /** Added to (and overriding) the protocol's own headers. */
  headers?: Record<string, string>;
}

/** A fetch `Response` streaming a run as the AI SDK's UI message stream (what `useChat`'s default transport reads). */
export function uiMessageStreamResponse(
  events: AsyncIterable<RunEvent>,
  options: UIMessageStreamOptions & StreamResponseInit = {},
): Response {
  return new Response(sseBody(sseLines(toUIMessageChunks(events, options), true)), {
    status: options.status ?? 200,
    headers: { ...UI_MESSAGE_STREAM_HEADERS, ...options.headers },
  });
}

/** A fetch `Response` streaming a run as AG-UI events over SSE (what `@ag-ui/client`'s `HttpAgent` reads). */
export function agUiResponse(events: AsyncIterable<RunEvent>, options: AgUiOptions & StreamResponseInit): Response {
  return new Response(sseBody(sseLines(toAgUiEvents(events, options), false)), {
    status: options.status ?? 200,
    headers: { ...AG_UI_STREAM_HEADERS, ...options.headers },
  });
}

/** Streams a run to a Node `http` response as the AI SDK's UI message stream; resolves when the response ends. */
export function pipeUIMessageStream(
  response: ServerResponse,
  events: AsyncIterable<RunEvent>,
  options: UIMessageStreamOptions & StreamResponseInit = {},
): Promise<void> {
  return pipeLines(
    response,
    sseLines(toUIMessageChunks(events, options), true),
    {
      ...UI_MESSAGE_STREAM_HEADERS,
      ...options.headers,
    },
    options.status,
  );
}

/** Streams a run to a Node `http` response as AG-UI events over SSE; resolves when the response ends. */
export function pipeAgUiStream(
  response: ServerResponse,
  events: AsyncIterable<RunEvent>,
  options: AgUiOptions & StreamResponseInit,
): Promise<void> {
  return pipeLines(
    response,
    sseLines(toAgUiEvents(events, options), false),
    {
      ...AG_UI_STREAM_HEADERS,
      ...options.headers,
    },
    options.status,
  );
}

async function pipeLines(
  response: ServerResponse,
  lines: AsyncGenerator<string>,
  headers: Record<string, string>,
  status = 200,
): Promise<void> {
  response.writeHead(status, headers);
  // A client that hangs up stops the reading (and so the run's event loop here), instead of writing into the void.
  let gone = false;
  const onClose = () => {
    gone = true;
  };
  response.once("close", onClose);
  try {
    for await (const line of lines) {
      if (gone) break;
      if (!response.write(line))
        await new Promise<void>((resolve) => response.once("drain", resolve).once("close", resolve));
    }
  } finally {
    response.off("close", onClose);
    await lines.return(undefined);
    if (!gone) response.end();
  }
}
