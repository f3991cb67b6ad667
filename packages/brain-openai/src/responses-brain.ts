import type { ResponseStreamEvent } from "openai/resources/responses/responses";
import type { Brain, BrainRequest, Context, Model } from "@x/llm-types";
import { runStreamedCall, sdkTurnOptions, startTurn, type TurnBuilder } from "@x/brain-kit";
import { callHeaders, ClientCache } from "./clients";
import { knownHost } from "./compat";
import { classifyOpenAIError, streamErrorKind } from "./errors";
import { judgeOpenAIRoute, openAIEndpoint, type OpenAIBrainOptions } from "./openai-brain";
import { ResponsesEventReader, type ResponsesEnding } from "./responses-events";
import { sseJson } from "./sse-stream";
import { buildResponsesRequest, OPENAI_RESPONSES_API, type ResponsesRequestOptions } from "./responses-request";

export interface OpenAIResponsesBrainOptions extends Omit<OpenAIBrainOptions, "compat"> {
  /** Reasoning summaries to ask reasoning models for: `auto` (default), `concise`, `detailed`, or `off`. */
  reasoningSummary?: ResponsesRequestOptions["reasoningSummary"];
}

/**
 * A {@link Brain} for the OpenAI Responses API on the official `openai` SDK, the API OpenAI serves
 * its reasoning models best through. Stateless (`store: false`): reasoning items, encrypted, ride
 * in the turn's thinking blocks and go back on the next call of a tool-calling turn. Streams every
 * call; never throws — every failure ends as data on the final message, typed like the other brains.
 */
export function createOpenAIResponsesBrain(options: OpenAIResponsesBrainOptions = {}): Brain {
  const apiKey = options.apiKey ?? process.env.OPENAI_API_KEY;
  const clients = new ClientCache({ apiKey, headers: options.headers, fetch: options.fetch });
  const settings = sdkTurnOptions(OPENAI_RESPONSES_API, apiKey, process.env.OPENAI_CUSTOM_HEADERS, options);
  return {
    api: OPENAI_RESPONSES_API,
    // The request body is built from the context at the start of the call; nothing of it is kept.
    borrowsContext: true,
    stream: (model, context, request) =>
      startTurn(model, context, request, settings, (turn, call) => run(model, context, call, turn)),
    judgeRoute: (model) => judgeOpenAIRoute(apiKey, openAIEndpoint(model, options.baseUrl)),
  };

  async function run(model: Model, context: Context, request: BrainRequest, turn: TurnBuilder): Promise<void> {
    const baseUrl = openAIEndpoint(model, options.baseUrl);
    const reader = new ResponsesEventReader(turn);
    await runStreamedCall(turn, request, options.stallTimeoutMs, {
      build: () =>
        buildResponsesRequest(model, context, request, {
          reasoningSummary: options.reasoningSummary ?? "auto",
          promptCacheKey: knownHost(baseUrl)?.name === "openai",
        }),
      open: (body, signal, sink) =>
        clients.stream(baseUrl, "/responses", body, callHeaders(model, request), signal, (headers) =>
          sseJson<ResponseStreamEvent>(sink, headers),
        ),
      read: (event: ResponseStreamEvent) => reader.read(event),
      finish: () => {
        const ending = reader.ending;
        return ending ? () => finish(turn, ending, reader.refusal) : undefined;
      },
      classify: classifyOpenAIError,
    });
  }
}

function finish(turn: TurnBuilder, ending: ResponsesEnding, refusal: string): void {
  if (ending.kind === "failed") {
    turn.fail(streamErrorKind(`${ending.code ?? ""} ${ending.message}`), ending.message);
    return;
  }
  if (ending.kind === "incomplete") {
    if (ending.reason === "content_filter")
      turn.fail("content_filter", refusal || "the provider's content filter stopped the reply");
    else turn.finish("length");
    return;
  }
  if (refusal) turn.fail("content_filter", refusal);
  else turn.finish("stop");
}
