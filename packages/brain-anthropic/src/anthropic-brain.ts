import { EventStream, emptyUsage, type AssistantMessage, type Brain, type BrainRequest, type BrainStream, type Context, type Model } from "@x/llm-types";
import { TurnBuilder, redactSecrets, type RepetitionGuardOptions } from "@x/terminal-cause";
import { CallControl } from "./call-control";
import { ClientCache } from "./clients";
import { classifyAnthropicError, isTransportError } from "./errors";
import { EventReader } from "./events";
import { buildAnthropicRequest, type AnthropicThinkingStyle } from "./request";

export interface AnthropicBrainOptions {
  /** API key. Default: `ANTHROPIC_API_KEY`. Without one every call ends as `auth` (no disk or profile lookup). */
  apiKey?: string;
  /** Used for models whose `baseUrl` is not an http(s) URL. Default `https://api.anthropic.com`. */
  baseUrl?: string;
  /** Headers on every request (e.g. `anthropic-beta`); the model's `headers` and the request's go over them. */
  headers?: Record<string, string>;
  /** No bytes for this long mid-stream ⇒ keep what arrived, `partialFinalized`. Default 120 000 ms. */
  stallTimeoutMs?: number;
  /** A `fetch` to use instead of the global one. */
  fetch?: typeof globalThis.fetch;
  /** Repetition-guard tuning, or `false` to turn the guard off. */
  guard?: RepetitionGuardOptions | false;
  /**
   * How a reasoning level is spelled, fixed or per model: `budget` (default) sends
   * `thinking.budget_tokens`; `adaptive` sends `thinking: { type: "adaptive" }` with
   * `output_config.effort`, for models where Anthropic deprecates fixed budgets.
   */
  thinkingStyle?: AnthropicThinkingStyle | ((model: Model) => AnthropicThinkingStyle);
}

export const ANTHROPIC_MESSAGES_API = "anthropic-messages";
export const DEFAULT_ANTHROPIC_BASE_URL = "https://api.anthropic.com";
export const DEFAULT_STALL_TIMEOUT_MS = 120_000;

const AUTH_HEADERS = new Set(["authorization", "x-api-key", "proxy-authorization"]);

function secretsOf(apiKey: string | undefined, ...headerSets: Array<Record<string, string> | undefined>): string[] {
  const secrets = apiKey ? [apiKey] : [];
  for (const headers of headerSets) {
    for (const [name, value] of Object.entries(headers ?? {})) {
      if (AUTH_HEADERS.has(name.toLowerCase())) secrets.push(value, value.replace(/^Bearer\s+/i, ""));
    }
  }
  return secrets;
}

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
  return {
    api: ANTHROPIC_MESSAGES_API,
    stream(model: Model, context: Context, request: BrainRequest = {}): BrainStream {
      const stream = new EventStream();
      try {
        const turn = new TurnBuilder({
          model,
          stream,
          guard: options.guard,
          maxTokens: request.maxTokens,
          context,
          secrets: secretsOf(apiKey, options.headers, model.headers, request.headers),
        });
        run(model, context, request, turn).catch((error: unknown) => turn.fail("provider", `internal error: ${error instanceof Error ? error.message : String(error)}`));
      } catch (error) {
        // Only a malformed model or request lands here; the contract still says: no throw.
        const message: AssistantMessage = {
          role: "assistant",
          content: [],
          api: ANTHROPIC_MESSAGES_API,
          provider: String((model as Partial<Model> | undefined)?.provider ?? "unknown"),
          model: String((model as Partial<Model> | undefined)?.id ?? "unknown"),
          usage: emptyUsage(),
          stopReason: "error",
          errorKind: "bad_request",
          errorMessage: redactSecrets(`invalid call: ${error instanceof Error ? error.message : String(error)}`, [apiKey]),
          timestamp: Date.now(),
        };
        stream.push({ type: "start", partial: { ...message } });
        stream.push({ type: "error", message });
      }
      return stream;
    },
  };

  async function run(model: Model, context: Context, request: BrainRequest, turn: TurnBuilder): Promise<void> {
    if (!apiKey) {
      turn.fail("auth", "no Anthropic API key: pass `apiKey` to createAnthropicBrain or set ANTHROPIC_API_KEY");
      return;
    }
    const stallTimeoutMs = request.stallTimeoutMs ?? options.stallTimeoutMs ?? DEFAULT_STALL_TIMEOUT_MS;
    const control = new CallControl(request.signal, request.timeoutMs, stallTimeoutMs);
    const reader = new EventReader(turn);
    try {
      const baseUrl = sdkBaseUrl(/^https?:\/\//i.test(model.baseUrl) ? model.baseUrl : (options.baseUrl ?? DEFAULT_ANTHROPIC_BASE_URL));
      const client = clients.get({ baseUrl, apiKey, headers: options.headers, fetch: options.fetch });
      const style = typeof options.thinkingStyle === "function" ? options.thinkingStyle(model) : (options.thinkingStyle ?? "budget");
      const events = await client.messages.create(buildAnthropicRequest(model, context, request, style), {
        signal: control.controller.signal,
        headers: { ...model.headers, ...request.headers },
        maxRetries: 0,
      });
      control.heartbeat();
      for await (const event of events) {
        control.heartbeat();
        if (reader.read(event) === "cut") {
          control.cut("guard");
          return;
        }
      }
      end(turn, reader, control, undefined);
    } catch (error) {
      end(turn, reader, control, error);
    } finally {
      control.dispose();
    }
  }
}

/** Ends the turn from how the call went: our own cut first, then the provider's stop, then the error. */
function end(turn: TurnBuilder, reader: EventReader, control: CallControl, error: unknown): void {
  if (turn.isEnded) return;
  if (control.reason === "aborted") {
    turn.abort();
    return;
  }
  // A stop reason means the model finished; a stall or drop before `message_stop` loses nothing.
  if (reader.stopReason) {
    finish(turn, reader.stopReason);
    return;
  }
  if (control.reason === "timeout" || control.reason === "stall") {
    turn.cutShort("timeout", control.reason === "stall" ? `no bytes for ${control.stallTimeoutMs} ms; the stream was cut at the stall` : `no complete reply within ${control.timeoutMs} ms`);
    return;
  }
  if (error === undefined) {
    turn.cutShort("network", "the stream ended before the provider finished the turn; what arrived was kept");
    return;
  }
  if (isTransportError(error)) {
    turn.cutShort("network", `the connection dropped mid-stream: ${errorText(error)}`);
    return;
  }
  const failure = classifyAnthropicError(error);
  turn.fail(failure.kind, failure.message, failure.retryAfterMs === undefined ? {} : { retryAfterMs: failure.retryAfterMs });
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
      turn.fail("context_overflow", "the reply filled the model's context window (stop_reason: model_context_window_exceeded)");
      return;
    default:
      // end_turn, stop_sequence, pause_turn
      turn.finish("stop");
  }
}

function errorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : "";
  return `${error.message}${cause}`;
}
