import type { Brain, BrainRequest, Context, Model } from "@x/llm-types";
import {
  CallControl,
  DEFAULT_STALL_TIMEOUT_MS,
  describeError,
  headerLines,
  pumpCall,
  settleCall,
  startTurn,
  type TurnBuilder,
} from "@x/brain-kit";
import { ClientCache } from "./clients";
import { knownHost } from "./compat";
import { classifyOpenAIError, streamErrorKind } from "./errors";
import { openAIEndpoint, type OpenAIBrainOptions } from "./openai-brain";
import { ResponsesEventReader, type ResponsesEnding } from "./responses-events";
import {
  buildResponsesRequest,
  OPENAI_RESPONSES_API,
  type ResponsesRequestBody,
  type ResponsesRequestOptions,
} from "./responses-request";

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
  const clients = new ClientCache();
  const apiKey = options.apiKey ?? process.env.OPENAI_API_KEY;
  const settings = {
    api: OPENAI_RESPONSES_API,
    apiKey,
    headers: { ...headerLines(process.env.OPENAI_CUSTOM_HEADERS), ...options.headers },
    guard: options.guard,
  };
  return {
    api: OPENAI_RESPONSES_API,
    stream: (model, context, request) =>
      startTurn(model, context, request, settings, (turn, call) => run(model, context, call, turn)),
  };

  async function run(model: Model, context: Context, request: BrainRequest, turn: TurnBuilder): Promise<void> {
    const baseUrl = openAIEndpoint(model, options.baseUrl);
    let body: ResponsesRequestBody;
    try {
      body = buildResponsesRequest(model, context, request, {
        reasoningSummary: options.reasoningSummary ?? "auto",
        promptCacheKey: knownHost(baseUrl)?.name === "openai",
      });
    } catch (error) {
      turn.fail("bad_request", `could not build the request: ${describeError(error)}`);
      return;
    }
    const control = new CallControl(
      request.signal,
      request.timeoutMs,
      request.stallTimeoutMs ?? options.stallTimeoutMs ?? DEFAULT_STALL_TIMEOUT_MS,
    );
    const reader = new ResponsesEventReader(turn);
    const outcome = await pumpCall(
      control,
      (signal) =>
        clients
          .get({ baseUrl, apiKey, headers: options.headers, fetch: options.fetch })
          .responses.create(body, { signal, headers: { ...model.headers, ...request.headers }, maxRetries: 0 }),
      (event) => reader.read(event),
    );
    const ending = reader.ending;
    settleCall(turn, control, {
      ...outcome,
      finish: ending ? () => finish(turn, ending, reader.refusal) : undefined,
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
