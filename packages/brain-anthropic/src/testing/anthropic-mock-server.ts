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

/** One content block of a scripted answer, streamed in this order. */
export type AnthropicMockBlock =
  | { type: "thinking"; thinking: string | string[]; signature: string }
  | { type: "redacted_thinking"; data: string }
  | { type: "text"; text: string | string[] }
  /** `input` as a string is streamed verbatim as `partial_json` (may be malformed). */
  | { type: "tool_use"; id: string; name: string; input: string | Record<string, unknown> };

/**
 * One streamed Messages answer, as the API reference documents the events: `message_start` (with
 * input usage), a `ping`, per block `content_block_start` / `content_block_delta`* /
 * `content_block_stop`, then `message_delta` (stop reason, output usage) and `message_stop`.
 */
export interface AnthropicMockTurn extends StreamDelivery {
  blocks: AnthropicMockBlock[];
  /** Default: `tool_use` when a block is a tool use, else `end_turn`. */
  stopReason?:
    | "end_turn"
    | "max_tokens"
    | "stop_sequence"
    | "tool_use"
    | "pause_turn"
    | "refusal"
    | "model_context_window_exceeded";
  usage?: { input: number; output: number; cacheRead?: number; cacheWrite?: number };
  /** The `model` of `message_start`. Default: the request's model. */
  model?: string;
  /** An `event: error` sent after the events sent, e.g. `{ type: "overloaded_error", message: "Overloaded" }`. */
  streamError?: { type: string; message: string };
}

/** An HTTP error the way Anthropic sends it: `{ type: "error", error: { type, message }, request_id }`. */
export interface AnthropicMockError {
  status: number;
  type: string;
  message: string;
  headers?: Record<string, string>;
}

export type AnthropicMockReply = MockReply<AnthropicMockTurn, AnthropicMockError>;

export type AnthropicMockScript = MockScript<AnthropicMockReply>;

export interface AnthropicMockServer extends ProviderMockServer {
  /** Base URL to give the brain or the model: `http://127.0.0.1:<port>` (the SDK appends `/v1/messages`). */
  readonly baseUrl: string;
}

const list = (value: string | string[]) => (Array.isArray(value) ? value : [value]);
const roughTokens = (text: string) => Math.max(1, Math.ceil(text.length / 4));

/** The SSE frames of one scripted turn, in the documented event format. */
export function anthropicTurnFrames(turn: AnthropicMockTurn, request?: RecordedRequest): string[] {
  const body = (request?.body ?? {}) as { model?: string };
  const model = turn.model ?? body.model ?? "claude-mock";
  const replySize = JSON.stringify(turn.blocks).length;
  const usage = turn.usage ?? {
    input: roughTokens(JSON.stringify(body)),
    output: roughTokens(JSON.stringify(turn.blocks)),
  };
  const frames: string[] = [
    sseFrame(
      {
        type: "message_start",
        message: {
          id: "msg_mock",
          type: "message",
          role: "assistant",
          content: [],
          model,
          stop_reason: null,
          stop_sequence: null,
          usage: {
            input_tokens: usage.input,
            output_tokens: 1,
            cache_creation_input_tokens: usage.cacheWrite ?? 0,
            cache_read_input_tokens: usage.cacheRead ?? 0,
          },
        },
      },
      "message_start",
    ),
    sseFrame({ type: "ping" }, "ping"),
  ];
  const delta = (index: number, d: Record<string, unknown>) =>
    frames.push(sseFrame({ type: "content_block_delta", index, delta: d }, "content_block_delta"));
  turn.blocks.forEach((block, index) => {
    const start = (content_block: Record<string, unknown>) =>
      frames.push(sseFrame({ type: "content_block_start", index, content_block }, "content_block_start"));
    switch (block.type) {
      case "thinking":
        start({ type: "thinking", thinking: "", signature: "" });
        for (const piece of list(block.thinking)) delta(index, { type: "thinking_delta", thinking: piece });
        delta(index, { type: "signature_delta", signature: block.signature });
        break;
      case "redacted_thinking":
        start({ type: "redacted_thinking", data: block.data });
        break;
      case "text":
        start({ type: "text", text: "" });
        for (const piece of list(block.text)) delta(index, { type: "text_delta", text: piece });
        break;
      case "tool_use": {
        start({ type: "tool_use", id: block.id, name: block.name, input: {} });
        const json = typeof block.input === "string" ? block.input : JSON.stringify(block.input);
        const step = Math.max(1, Math.ceil(json.length / 3));
        for (let at = 0; at < json.length; at += step)
          delta(index, { type: "input_json_delta", partial_json: json.slice(at, at + step) });
        break;
      }
    }
    frames.push(sseFrame({ type: "content_block_stop", index }, "content_block_stop"));
  });
  const stopReason = turn.stopReason ?? (turn.blocks.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn");
  frames.push(
    sseFrame(
      {
        type: "message_delta",
        delta: { stop_reason: stopReason, stop_sequence: null },
        usage: { output_tokens: turn.usage?.output ?? Math.max(1, Math.ceil(replySize / 4)) },
      },
      "message_delta",
    ),
  );
  frames.push(sseFrame({ type: "message_stop" }, "message_stop"));
  return frames;
}

function errorReply(error: AnthropicMockError): WireReply {
  return {
    kind: "json",
    status: error.status,
    headers: { "request-id": "req_mock", ...error.headers },
    body: { type: "error", error: { type: error.type, message: error.message }, request_id: "req_mock" },
  };
}

/**
 * Starts a loopback server speaking the Messages streaming wire (`POST /v1/messages`), answering
 * each request from `script`. Real node:http and real SSE, so the official SDK talks to it as to the API.
 */
export async function startAnthropicMockServer(script: AnthropicMockScript): Promise<AnthropicMockServer> {
  const server = await startProviderMockServer({
    route: (request) => request.method === "POST" && request.path.startsWith("/v1/messages"),
    script,
    turn: (turn, request) =>
      streamReply(
        anthropicTurnFrames(turn, request),
        turn,
        turn.streamError && sseFrame({ type: "error", error: turn.streamError }, "error"),
      ),
    error: errorReply,
    errorBody: (status, message) => ({
      type: "error",
      error: { type: status === 404 ? "not_found_error" : "api_error", message },
    }),
  });
  return { ...server, baseUrl: server.origin };
}
