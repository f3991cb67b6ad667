import type { Brain, BrainRequest, Context, Model } from "@x/llm-types";
import {
  CallControl,
  DEFAULT_STALL_TIMEOUT_MS,
  describeError,
  headerLines,
  pumpCall,
  settleCall,
  startTurn,
  type HttpBrainOptions,
  type TurnBuilder,
} from "@x/brain-kit";
import { ClientCache } from "./clients";
import { classifyAnthropicError } from "./errors";
import { EventReader } from "./events";
import { buildAnthropicRequest, type AnthropicRequestBody } from "./request";
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
  // The SDK adds the headers in ANTHROPIC_CUSTOM_HEADERS to every request: scrub their credentials too.
  const settings = {
    api: ANTHROPIC_MESSAGES_API,
    apiKey,
    headers: { ...headerLines(process.env.ANTHROPIC_CUSTOM_HEADERS), ...options.headers },
    guard: options.guard,
  };
  return {
    api: ANTHROPIC_MESSAGES_API,
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
    let body: AnthropicRequestBody;
    try {
      const style =
        typeof options.thinkingStyle === "function"
          ? options.thinkingStyle(model)
          : (options.thinkingStyle ?? model.thinkingStyle ?? defaultThinkingStyle(model.id));
      body = buildAnthropicRequest(model, context, request, style);
    } catch (error) {
      turn.fail("bad_request", `could not build the request: ${describeError(error)}`);
      return;
    }
    const control = new CallControl(
      request.signal,
      request.timeoutMs,
      request.stallTimeoutMs ?? options.stallTimeoutMs ?? DEFAULT_STALL_TIMEOUT_MS,
    );
    const reader = new EventReader(turn);
    const baseUrl = sdkBaseUrl(
      /^https?:\/\//i.test(model.baseUrl) ? model.baseUrl : (options.baseUrl ?? DEFAULT_ANTHROPIC_BASE_URL),
    );
    const outcome = await pumpCall(
      control,
      (signal) =>
        clients
          .get({ baseUrl, apiKey, headers: options.headers, fetch: options.fetch })
          .messages.create(body, { signal, headers: { ...model.headers, ...request.headers }, maxRetries: 0 }),
      (event) => reader.read(event),
    );
    const stopReason = reader.stopReason;
    // A stop reason means the model finished: a stall or drop before `message_stop` loses nothing.
    settleCall(turn, control, {
      ...outcome,
      finish: stopReason ? () => finish(turn, stopReason) : undefined,
      classify: classifyAnthropicError,
    });
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
