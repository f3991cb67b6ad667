import { startScriptedServer, type RecordedRequest, type ScriptedServer, type WireReply } from "./scripted-server";

/** How a scripted streamed turn is delivered, the same knobs for every provider's mock. */
export interface StreamDelivery {
  /** Milliseconds before each event. */
  delayMs?: number;
  /** Send only the first N events, then end as `ending` says. */
  cutAfter?: number;
  /** `done` (every event, clean close — the default), `end` (clean close), `destroy` (socket reset), `hang` (stall). */
  ending?: "done" | "end" | "destroy" | "hang";
  /** Extra response headers. */
  headers?: Record<string, string>;
}

/**
 * The wire reply for a scripted turn's SSE `frames`: cut after `cutAfter`, then `errorFrame` (if any), then the ending.
 */
export function streamReply(frames: string[], delivery: StreamDelivery, errorFrame?: string): WireReply {
  const sent = delivery.cutAfter === undefined ? [...frames] : frames.slice(0, delivery.cutAfter);
  if (errorFrame !== undefined) sent.push(errorFrame);
  const ending = delivery.ending ?? "done";
  return {
    kind: "sse",
    frames: sent,
    delayMs: delivery.delayMs,
    headers: delivery.headers,
    ending: ending === "done" ? "end" : ending,
  };
}

/**
 * One scripted reply of a provider mock: a streamed `Turn`, an HTTP error in the provider's shape,
 * a reset before any response byte (`drop`), no answer at all (`hang`), or anything at the wire level.
 */
export type MockReply<Turn, Failure> =
  | ({ kind?: "turn" } & Turn)
  | { kind: "error"; error: Failure }
  | { kind: "drop" }
  | { kind: "hang" }
  | { kind: "wire"; reply: WireReply };

/** Replies consumed in order (a request past the end gets a 500), or a function of the request. */
export type MockScript<R> = R[] | ((request: RecordedRequest, index: number) => R | Promise<R>);

export interface ProviderMockOptions<Turn, Failure> {
  /** The requests the script answers (e.g. `POST /v1/messages`); any other gets a 404. */
  route: (request: RecordedRequest) => boolean;
  script: MockScript<MockReply<Turn, Failure>>;
  /** A scripted turn at the wire level, usually `streamReply(frames, turn, errorFrame)`. */
  turn: (turn: Turn, request: RecordedRequest) => WireReply;
  /** A scripted HTTP error at the wire level. */
  error: (error: Failure) => WireReply;
  /** The provider's error body for a 404 (no route) or a 500 (script exhausted). */
  errorBody: (status: 404 | 500, message: string) => unknown;
}

export interface ProviderMockServer extends ScriptedServer {
  /** The JSON bodies of the requests the script answered, in order. */
  bodies(): Array<Record<string, unknown>>;
}

function toWire<Turn, Failure>(
  reply: MockReply<Turn, Failure>,
  request: RecordedRequest,
  options: ProviderMockOptions<Turn, Failure>,
): WireReply {
  switch (reply.kind) {
    case "error":
      return options.error(reply.error);
    case "drop":
      return { kind: "destroy" };
    case "hang":
      return { kind: "hang" };
    case "wire":
      return reply.reply;
    default:
      return options.turn(reply, request);
  }
}

/** A loopback server answering one provider route from a script: the shared core of the brains' mock servers. */
export async function startProviderMockServer<Turn, Failure>(
  options: ProviderMockOptions<Turn, Failure>,
): Promise<ProviderMockServer> {
  const { route, script, errorBody } = options;
  const server = await startScriptedServer(async (request, index) => {
    if (!route(request))
      return { kind: "json", status: 404, body: errorBody(404, `no route ${request.method} ${request.path}`) };
    const reply = typeof script === "function" ? await script(request, index) : script[index];
    if (reply === undefined)
      return { kind: "json", status: 500, body: errorBody(500, `script has no reply #${index + 1}`) };
    return toWire(reply, request, options);
  });
  return {
    origin: server.origin,
    requests: server.requests,
    bodies: () => server.requests.filter(route).map((r) => r.body as Record<string, unknown>),
    close: () => server.close(),
  };
}
