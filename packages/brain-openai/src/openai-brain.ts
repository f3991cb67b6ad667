import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import type { Brain, BrainRequest, Context, Model, RouteJudgement } from "@x/llm-types";
import { runStreamedCall, sdkTurnOptions, startTurn, type HttpBrainOptions, type TurnBuilder } from "@x/brain-kit";
import { ChunkReader } from "./chunks";
import { callHeaders, ClientCache } from "./clients";
import { resolveCompat, type OpenAICompatOption } from "./compat";
import { classifyOpenAIError } from "./errors";
import { buildOpenAIRequest } from "./request";
import { sseJson } from "./sse-stream";

export interface OpenAIBrainOptions extends HttpBrainOptions {
  /** API key. Default: `OPENAI_API_KEY`. Without one, no Authorization header is sent (local gateways). */
  apiKey?: string;
  /** Used for models whose `baseUrl` is not an http(s) URL. Default `https://api.openai.com/v1`. */
  baseUrl?: string;
  /** How the endpoint spells reasoning control and the output cap; fixed or per model. */
  compat?: OpenAICompatOption;
}

export const OPENAI_COMPLETIONS_API = "openai-completions";
export const DEFAULT_OPENAI_BASE_URL = "https://api.openai.com/v1";

/** The URL a call goes to: the model's own `baseUrl` when it is one, else the brain's, else OpenAI's. */
export function openAIEndpoint(model: Model, brainBaseUrl: string | undefined): string {
  return /^https?:\/\//i.test(model.baseUrl) ? model.baseUrl : (brainBaseUrl ?? DEFAULT_OPENAI_BASE_URL);
}

/**
 * A {@link Brain} for OpenAI Chat Completions and OpenAI-compatible gateways (vLLM, Ollama,
 * OpenRouter, LiteLLM), on the official `openai` SDK. Streams every call; never throws — HTTP
 * failures, dropped or stalled streams, aborts and deadlines all end as data on the final message.
 */
export function createOpenAIBrain(options: OpenAIBrainOptions = {}): Brain {
  const apiKey = options.apiKey ?? process.env.OPENAI_API_KEY;
  const clients = new ClientCache({ apiKey, headers: options.headers, fetch: options.fetch });
  const settings = sdkTurnOptions(OPENAI_COMPLETIONS_API, apiKey, process.env.OPENAI_CUSTOM_HEADERS, options);
  return {
    api: OPENAI_COMPLETIONS_API,
    // The request body is built from the context at the start of the call; nothing of it is kept.
    borrowsContext: true,
    stream: (model, context, request) =>
      startTurn(model, context, request, settings, (turn, call) => run(model, context, call, turn)),
    judgeRoute: (model) => judgeOpenAIRoute(apiKey, openAIEndpoint(model, options.baseUrl)),
  };

  async function run(model: Model, context: Context, request: BrainRequest, turn: TurnBuilder): Promise<void> {
    const baseUrl = openAIEndpoint(model, options.baseUrl);
    const reader = new ChunkReader(turn);
    await runStreamedCall(turn, request, options.stallTimeoutMs, {
      build: () => buildOpenAIRequest(model, context, request, resolveCompat(model, baseUrl, options.compat)),
      open: (body, signal, sink) =>
        clients.stream(baseUrl, "/chat/completions", body, callHeaders(model, request), signal, (headers) =>
          sseJson<ChatCompletionChunk>(sink, headers, {
            onDone: () => (reader.sawDone = true),
            beforeError: (chunk) => reader.readUsage(chunk),
          }),
        ),
      read: (chunk: ChatCompletionChunk) => reader.read(chunk),
      // A finish reason means the provider finished: a stall or drop before the usage chunk loses
      // nothing. So does `[DONE]` without one (Snowflake's hosts send none): the stream ended where
      // the provider ended it. Without either the stream was cut, and what arrived is kept as such.
      finish: () => (reader.finishReason || endedAtDone(reader) ? () => finish(turn, reader) : undefined),
      classify: classifyOpenAIError,
    });
  }
}

/**
 * OpenAI's own API refuses a call without a key, so a keyless route there is broken before any call.
 * A gateway (vLLM, Ollama, LiteLLM) may need no key at all: no opinion there. Both OpenAI brains judge so.
 */
export function judgeOpenAIRoute(apiKey: string | undefined, endpoint: string): RouteJudgement {
  return !apiKey && isOpenAIHost(endpoint) ? { broken: true, cause: "missing_api_key" } : { broken: false };
}

function isOpenAIHost(baseUrl: string): boolean {
  try {
    return new URL(baseUrl).hostname.toLowerCase() === "api.openai.com";
  } catch {
    return false;
  }
}

/** The stream reached `[DONE]` with no finish reason, and no tool call's arguments stop mid-way. */
function endedAtDone(reader: ChunkReader): boolean {
  return reader.sawDone && reader.openCallWhole;
}

function finish(turn: TurnBuilder, reader: ChunkReader): void {
  switch (reader.finishReason) {
    case "length":
      turn.finish("length");
      return;
    case "tool_calls":
    case "function_call":
      turn.finish("toolUse");
      return;
    case "content_filter":
      turn.fail("content_filter", reader.refusal || "the provider's content filter stopped the reply");
      return;
    default:
      // `stop`, or no finish reason before `[DONE]`: a `stop` with whole tool calls is `toolUse`.
      if (reader.refusal) turn.fail("content_filter", reader.refusal);
      else turn.finish("stop");
  }
}
