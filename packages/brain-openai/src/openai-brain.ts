import { EventStream, emptyUsage, type AssistantMessage, type Brain, type BrainRequest, type BrainStream, type Context, type Model } from "@x/llm-types";
import { TurnBuilder, redactSecrets, type RepetitionGuardOptions } from "@x/terminal-cause";
import { CallControl } from "./call-control";
import { ChunkReader } from "./chunks";
import { ClientCache } from "./clients";
import { resolveCompat, type OpenAICompatOption } from "./compat";
import { classifyOpenAIError, isTransportError } from "./errors";
import { buildOpenAIRequest } from "./request";

export interface OpenAIBrainOptions {
  /** API key. Default: `OPENAI_API_KEY`. Without one, no Authorization header is sent (local gateways). */
  apiKey?: string;
  /** Used for models whose `baseUrl` is not an http(s) URL. Default `https://api.openai.com/v1`. */
  baseUrl?: string;
  /** Headers on every request; the model's `headers` and the request's go over them. */
  headers?: Record<string, string>;
  /** No bytes for this long mid-stream ⇒ keep what arrived, `partialFinalized`. Default 120 000 ms. */
  stallTimeoutMs?: number;
  /** A `fetch` to use instead of the global one (proxies, instrumentation). */
  fetch?: typeof globalThis.fetch;
  /** Repetition-guard tuning, or `false` to turn the guard off. */
  guard?: RepetitionGuardOptions | false;
  /** How the endpoint spells reasoning control and the output cap; fixed or per model. */
  compat?: OpenAICompatOption;
}

export const OPENAI_COMPLETIONS_API = "openai-completions";
export const DEFAULT_OPENAI_BASE_URL = "https://api.openai.com/v1";
export const DEFAULT_STALL_TIMEOUT_MS = 120_000;

const AUTH_HEADERS = new Set(["authorization", "api-key", "x-api-key", "proxy-authorization"]);

/** Credentials to scrub from every message: the key and any auth header value. */
function secretsOf(apiKey: string | undefined, ...headerSets: Array<Record<string, string> | undefined>): string[] {
  const secrets = apiKey ? [apiKey] : [];
  for (const headers of headerSets) {
    for (const [name, value] of Object.entries(headers ?? {})) {
      if (AUTH_HEADERS.has(name.toLowerCase())) secrets.push(value, value.replace(/^Bearer\s+/i, ""));
    }
  }
  return secrets;
}

/**
 * A {@link Brain} for OpenAI Chat Completions and OpenAI-compatible gateways (vLLM, Ollama,
 * OpenRouter, LiteLLM), on the official `openai` SDK. Streams every call; never throws — HTTP
 * failures, dropped or stalled streams, aborts and deadlines all end as data on the final message.
 */
export function createOpenAIBrain(options: OpenAIBrainOptions = {}): Brain {
  const clients = new ClientCache();
  const apiKey = options.apiKey ?? process.env.OPENAI_API_KEY;
  return {
    api: OPENAI_COMPLETIONS_API,
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
          api: OPENAI_COMPLETIONS_API,
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
    const stallTimeoutMs = request.stallTimeoutMs ?? options.stallTimeoutMs ?? DEFAULT_STALL_TIMEOUT_MS;
    const control = new CallControl(request.signal, request.timeoutMs, stallTimeoutMs);
    const reader = new ChunkReader(turn);
    try {
      const baseUrl = /^https?:\/\//i.test(model.baseUrl) ? model.baseUrl : (options.baseUrl ?? DEFAULT_OPENAI_BASE_URL);
      const body = buildOpenAIRequest(model, context, request, resolveCompat(model, baseUrl, options.compat));
      const client = clients.get({ baseUrl, apiKey, headers: options.headers, fetch: options.fetch });
      const chunks = await client.chat.completions.create(body, {
        signal: control.controller.signal,
        headers: { ...model.headers, ...request.headers },
        maxRetries: 0,
      });
      control.heartbeat();
      for await (const chunk of chunks) {
        control.heartbeat();
        if (reader.read(chunk) === "cut") {
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

/** Ends the turn from how the call went: our own cut first, then the provider's finish, then the error. */
function end(turn: TurnBuilder, reader: ChunkReader, control: CallControl, error: unknown): void {
  if (turn.isEnded) return;
  switch (control.reason) {
    case "aborted":
      turn.abort();
      return;
    case "timeout":
    case "stall":
      // A stall after the provider already finished the turn loses nothing.
      if (reader.finishReason) break;
      turn.cutShort("timeout", control.reason === "stall" ? `no bytes for ${control.stallTimeoutMs} ms; the stream was cut at the stall` : `no complete reply within ${control.timeoutMs} ms`);
      return;
    default:
      break;
  }
  if (reader.finishReason) {
    finish(turn, reader);
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
  const failure = classifyOpenAIError(error);
  turn.fail(failure.kind, failure.message, failure.retryAfterMs === undefined ? {} : { retryAfterMs: failure.retryAfterMs });
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
      if (reader.refusal) turn.fail("content_filter", reader.refusal);
      else turn.finish("stop");
  }
}

function errorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : "";
  return `${error.message}${cause}`;
}
