import type { RawMessageStreamEvent } from "@anthropic-ai/sdk/resources/messages";
import type { Brain, BrainRequest, Context, Model } from "@x/llm-types";
import { runStreamedCall, sdkTurnOptions, startTurn, type HttpBrainOptions, type TurnBuilder } from "@x/brain-kit";
import { ClientCache } from "./clients";
import { classifyAnthropicError } from "./errors";
import { EventReader } from "./events";
import { buildAnthropicRequest } from "./request";
import { readSdkStream } from "./sse-stream";
import { defaultThinkingStyle, type AnthropicThinkingStyle } from "./thinking";

export interface AnthropicBrainOptions extends HttpBrainOptions {
  /** API key. Default: `ANTHROPIC_API_KEY`. Without one every call ends as `auth` (no disk or profile lookup). */
  apiKey?: string;
  /** Used for models whose `baseUrl` is not an http(s) URL. Default `https://api.anthropic.com`. */
  baseUrl?: string;
  /**
   * How a reasoning level is spelled, fixed or per model: `budget` sends `thinking.budget_tokens`;
   * `adaptive` sends `thinking: { type: "adaptive" }` with `output_config.effort`. Default: the
   * model's catalog entry (`thinkingStyle`), else adaptive for Claude 4.6 Opus/Sonnet and the 5
   * family (Opus 4.7+ refuse budgets), budget for older models.
   */
  thinkingStyle?: AnthropicThinkingStyle | ((model: Model) => AnthropicThinkingStyle);
}

export const ANTHROPIC_MESSAGES_API = "anthropic-messages";
export const DEFAULT_ANTHROPIC_BASE_URL = "https://api.anthropic.com";

/** The SDK appends `/v1/messages`; a base URL written with `/v1` would double it. */
function sdkBaseUrl(url: string): string {
  return url.replace(/\/+$/, "").replace(/\/v1$/, "");
}

/**
 * A {@link Brain} for the Anthropic Messages API on the official `@anthropic-ai/sdk`. Streams every
 * call with prompt-cache breakpoints on the stable prefix; never throws — HTTP failures, dropped or
 * stalled streams, aborts and deadlines all end as data on the final message.
 */
export function createAnthropicBrain(options: AnthropicBrainOptions = {}): Brain {
  const clients = new ClientCache();
  const apiKey = options.apiKey ?? process.env.ANTHROPIC_API_KEY;
  const settings = sdkTurnOptions(ANTHROPIC_MESSAGES_API, apiKey, process.env.ANTHROPIC_CUSTOM_HEADERS, options);
  return {
    api: ANTHROPIC_MESSAGES_API,
    // The request body is built from the context at the start of the call; nothing of it is kept.
    borrowsContext: true,
    stream: (model, context, request) =>
      startTurn(model, context, request, settings, (turn, call) => run(model, context, call, turn)),
    // Every call without a key fails `auth` (below): the route is broken before any call is made.
    judgeRoute: () => (apiKey ? { broken: false } : { broken: true, cause: "missing_api_key" }),
  };

  async function run(model: Model, context: Context, request: BrainRequest, turn: TurnBuilder): Promise<void> {
    if (!apiKey) {
      turn.fail("auth", "no Anthropic API key: pass `apiKey` to createAnthropicBrain or set ANTHROPIC_API_KEY");
      return;
    }
    const reader = new EventReader(turn);
    const baseUrl = sdkBaseUrl(
      /^https?:\/\//i.test(model.baseUrl) ? model.baseUrl : (options.baseUrl ?? DEFAULT_ANTHROPIC_BASE_URL),
    );
    await runStreamedCall(turn, request, options.stallTimeoutMs, {
      build: () => buildAnthropicRequest(model, context, request, thinkingStyleOf(model)),
      open: async (body, signal, sink) => {
        const response = await clients
          .get({ baseUrl, apiKey, headers: options.headers, fetch: options.fetch })
          .messages.create(body, { signal, headers: { ...model.headers, ...request.headers }, maxRetries: 0 })
          .asResponse();
        return readSdkStream(response, clients.transport, sink);
      },
      read: (event: RawMessageStreamEvent) => reader.read(event),
      // A stop reason means the model finished: a stall or drop before `message_stop` loses nothing.
      finish: () => {
        const stopReason = reader.stopReason;
        return stopReason ? () => finish(turn, stopReason) : undefined;
      },
      classify: classifyAnthropicError,
    });
  }

  function thinkingStyleOf(model: Model): AnthropicThinkingStyle {
    const style = options.thinkingStyle;
    return typeof style === "function"
      ? style(model)
      : (style ?? model.thinkingStyle ?? defaultThinkingStyle(model.id));
  }
}

function finish(turn: TurnBuilder, stopReason: string): void {
  switch (stopReason) {
    case "tool_use":
      turn.finish("toolUse");
      return;
    case "max_tokens":
      turn.finish("length");
      return;
    case "refusal":
      turn.fail("content_filter", "the model refused to continue (stop_reason: refusal)");
      return;
    case "model_context_window_exceeded":
      turn.fail(
        "context_overflow",
        "the reply filled the model's context window (stop_reason: model_context_window_exceeded)",
      );
      return;
    default:
      // end_turn, stop_sequence, pause_turn
      turn.finish("stop");
  }
}
