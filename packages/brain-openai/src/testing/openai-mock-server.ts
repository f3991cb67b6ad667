import {
  sseFrame,
  startProviderMockServer,
  streamReply,
  type MockReply,
  type MockScript,
  type ProviderMockServer,
  type RecordedRequest,
  type StreamDelivery,
  type WireReply,
} from "@x/brain-kit/testing";

/** A tool call the scripted model makes. `arguments` as a string is sent verbatim (may be malformed). */
export interface OpenAIMockToolCall {
  id: string;
  name: string;
  arguments: string | Record<string, unknown>;
}

/**
 * One streamed Chat Completions answer, turned into `chat.completion.chunk` events the way the API
 * reference documents them: a role chunk, reasoning deltas, content deltas, tool-call deltas (the
 * first carries id and name, the rest argument fragments), a finish chunk, a usage chunk with empty
 * `choices` (only when the request asked `stream_options.include_usage`), then `data: [DONE]`.
 */
export interface OpenAIMockTurn extends StreamDelivery {
  /** Reasoning text, sent in `reasoningField` deltas. */
  reasoning?: string | string[];
  /** `reasoning_content` (vLLM, DeepSeek) or `reasoning` (OpenRouter, Ollama). Default `reasoning_content`. */
  reasoningField?: "reasoning_content" | "reasoning";
  /** Answer text; an array is sent one delta per element. */
  text?: string | string[];
  toolCalls?: OpenAIMockToolCall[];
  /** Default: `tool_calls` when there are tool calls, else `stop`. `null` sends no finish chunk. */
  finishReason?: "stop" | "length" | "tool_calls" | "content_filter" | null;
  /** Counts for the usage chunk. Default: rough counts from the request and reply sizes. */
  usage?: { prompt: number; completion: number; cached?: number; reasoning?: number };
  /** The `model` field of every chunk. Default: the request's model. */
  model?: string;
  /** An error object sent in the stream as `data: {"error": ...}` after the events sent. */
  streamError?: { message: string; type?: string; code?: string | null };
}

/** An HTTP error the way OpenAI sends it: `{ error: { message, type, param, code } }`. */
export interface OpenAIMockError {
  status: number;
  message: string;
  type?: string;
  code?: string | null;
  headers?: Record<string, string>;
}

/**
 * A streamed turn, an HTTP error, `drop` (reset before any response byte), `hang` (never answer), or `wire` (anything
 * at the wire level).
 */
export type OpenAIMockReply = MockReply<OpenAIMockTurn, OpenAIMockError>;

/** Replies consumed in order (a request past the end gets a 500), or a function of the request. */
export type OpenAIMockScript = MockScript<OpenAIMockReply>;

export interface OpenAIMockServer extends ProviderMockServer {
  /** Base URL to give the brain or the model: `http://127.0.0.1:<port>/v1`. */
  readonly baseUrl: string;
}

const roughTokens = (text: string) => Math.max(1, Math.ceil(text.length / 4));

/** The SSE frames of one scripted turn (the `[DONE]` line included), in the documented chunk format. */
export function openAITurnFrames(turn: OpenAIMockTurn, request?: RecordedRequest): string[] {
  const body = (request?.body ?? {}) as { model?: string; stream_options?: { include_usage?: boolean } };
  const model = turn.model ?? body.model ?? "mock-model";
  const id = "chatcmpl-mock";
  const created = 1_700_000_000;
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    sseFrame({
      id,
      object: "chat.completion.chunk",
      created,
      model,
      system_fingerprint: "fp_mock",
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
      usage: null,
    });
  const list = (value: string | string[] | undefined) =>
    value === undefined ? [] : Array.isArray(value) ? value : [value];

  const frames = [chunk({ role: "assistant", content: "", refusal: null })];
  for (const piece of list(turn.reasoning)) frames.push(chunk({ [turn.reasoningField ?? "reasoning_content"]: piece }));
  for (const piece of list(turn.text)) frames.push(chunk({ content: piece }));
  (turn.toolCalls ?? []).forEach((call, index) => {
    const args = typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments);
    frames.push(
      chunk({ tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name, arguments: "" } }] }),
    );
    // Split the arguments in a few fragments, as the API streams them.
    const step = Math.max(1, Math.ceil(args.length / 3));
    for (let at = 0; at < args.length; at += step)
      frames.push(chunk({ tool_calls: [{ index, function: { arguments: args.slice(at, at + step) } }] }));
  });
  const finish = turn.finishReason === undefined ? (turn.toolCalls?.length ? "tool_calls" : "stop") : turn.finishReason;
  if (finish !== null) frames.push(chunk({}, finish));
  if (body.stream_options?.include_usage) {
    const replyText = [
      ...list(turn.reasoning),
      ...list(turn.text),
      ...(turn.toolCalls ?? []).map((c) => JSON.stringify(c.arguments)),
    ].join("");
    const usage = turn.usage ?? { prompt: roughTokens(JSON.stringify(body)), completion: roughTokens(replyText) };
    frames.push(
      sseFrame({
        id,
        object: "chat.completion.chunk",
        created,
        model,
        system_fingerprint: "fp_mock",
        choices: [],
        usage: {
          prompt_tokens: usage.prompt,
          completion_tokens: usage.completion,
          total_tokens: usage.prompt + usage.completion,
          prompt_tokens_details: { cached_tokens: usage.cached ?? 0, audio_tokens: 0 },
          completion_tokens_details: {
            reasoning_tokens: usage.reasoning ?? 0,
            audio_tokens: 0,
            accepted_prediction_tokens: 0,
            rejected_prediction_tokens: 0,
          },
        },
      }),
    );
  }
  frames.push(sseFrame("[DONE]"));
  return frames;
}

/** An HTTP error in OpenAI's shape, the same for both OpenAI wires. */
export function openAIErrorReply(error: OpenAIMockError): WireReply {
  return {
    kind: "json",
    status: error.status,
    headers: error.headers,
    body: {
      error: {
        message: error.message,
        type: error.type ?? "invalid_request_error",
        param: null,
        code: error.code ?? null,
      },
    },
  };
}

function turnReply(turn: OpenAIMockTurn, request: RecordedRequest): WireReply {
  const error = turn.streamError;
  const errorFrame =
    error &&
    sseFrame({
      error: { message: error.message, type: error.type ?? "server_error", param: null, code: error.code ?? null },
    });
  return streamReply(openAITurnFrames(turn, request), turn, errorFrame);
}

/**
 * Starts a loopback server speaking the Chat Completions streaming wire (`POST /v1/chat/completions`),
 * answering each request from `script`. Real node:http and real SSE: the official SDK, curl, or any
 * OpenAI-compatible client can talk to it.
 */
export async function startOpenAIMockServer(script: OpenAIMockScript): Promise<OpenAIMockServer> {
  const server = await startProviderMockServer({
    route: (request) => request.method === "POST" && request.path.startsWith("/v1/chat/completions"),
    script,
    turn: turnReply,
    error: openAIErrorReply,
    errorBody: (status, message) => ({
      error: { message, type: status === 404 ? "invalid_request_error" : "server_error", param: null, code: null },
    }),
  });
  return { ...server, baseUrl: `${server.origin}/v1` };
}
