import {
  sseFrame,
  startProviderMockServer,
  streamReply,
  type RecordedRequest,
  type WireReply,
} from "@x/brain-kit/testing";
import {
  openAIErrorReply,
  type OpenAIMockScript,
  type OpenAIMockServer,
  type OpenAIMockTurn,
} from "./openai-mock-server";

const list = (value: string | string[] | undefined) =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];
const roughTokens = (text: string) => Math.max(1, Math.ceil(text.length / 4));

/**
 * The SSE frames of one scripted turn in the Responses API's documented event stream: a reasoning
 * item (summary deltas, encrypted content on `done`), a message item (text deltas), function-call
 * items (argument fragments), then `response.completed` with usage — or `response.incomplete` for
 * a `length` / `content_filter` finish. The same turn shape as the Chat Completions mock.
 */
export function responsesTurnFrames(turn: OpenAIMockTurn, request?: RecordedRequest): string[] {
  const body = (request?.body ?? {}) as { model?: string };
  const model = turn.model ?? body.model ?? "mock-model";
  let sequence = 0;
  const event = (type: string, fields: Record<string, unknown>) =>
    sseFrame({ type, sequence_number: sequence++, ...fields }, type);
  const response = (status: string, extra: Record<string, unknown> = {}) => ({
    id: "resp_mock",
    object: "response",
    created_at: 1_700_000_000,
    status,
    model,
    output: [],
    ...extra,
  });
  const frames = [event("response.created", { response: response("in_progress") })];
  let index = 0;
  const reasoning = list(turn.reasoning);
  if (reasoning.length) {
    const item = { id: "rs_mock", type: "reasoning", summary: [] as unknown[] };
    frames.push(event("response.output_item.added", { output_index: index, item }));
    frames.push(
      event("response.reasoning_summary_part.added", {
        item_id: item.id,
        output_index: index,
        summary_index: 0,
        part: { type: "summary_text", text: "" },
      }),
    );
    for (const delta of reasoning)
      frames.push(
        event("response.reasoning_summary_text.delta", {
          item_id: item.id,
          output_index: index,
          summary_index: 0,
          delta,
        }),
      );
    const done = {
      ...item,
      summary: [{ type: "summary_text", text: reasoning.join("") }],
      encrypted_content: "gAAAA-mock-encrypted",
    };
    frames.push(event("response.output_item.done", { output_index: index++, item: done }));
  }
  const text = list(turn.text);
  if (text.length) {
    const item = { id: "msg_mock", type: "message", role: "assistant", status: "in_progress", content: [] };
    frames.push(event("response.output_item.added", { output_index: index, item }));
    for (const delta of text)
      frames.push(
        event("response.output_text.delta", { item_id: item.id, output_index: index, content_index: 0, delta }),
      );
    const done = {
      ...item,
      status: "completed",
      content: [{ type: "output_text", text: text.join(""), annotations: [] }],
    };
    frames.push(event("response.output_item.done", { output_index: index++, item: done }));
  }
  for (const call of turn.toolCalls ?? []) {
    const args = typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments);
    const item = {
      id: `fc_${call.id}`,
      type: "function_call",
      status: "in_progress",
      call_id: call.id,
      name: call.name,
      arguments: "",
    };
    frames.push(event("response.output_item.added", { output_index: index, item }));
    const step = Math.max(1, Math.ceil(args.length / 3));
    for (let at = 0; at < args.length; at += step)
      frames.push(
        event("response.function_call_arguments.delta", {
          item_id: item.id,
          output_index: index,
          delta: args.slice(at, at + step),
        }),
      );
    frames.push(
      event("response.output_item.done", {
        output_index: index++,
        item: { ...item, status: "completed", arguments: args },
      }),
    );
  }
  const replyText = [...reasoning, ...text, ...(turn.toolCalls ?? []).map((c) => JSON.stringify(c.arguments))].join("");
  const counts = turn.usage ?? { prompt: roughTokens(JSON.stringify(body)), completion: roughTokens(replyText) };
  const usage = {
    input_tokens: counts.prompt,
    input_tokens_details: { cached_tokens: counts.cached ?? 0 },
    output_tokens: counts.completion,
    output_tokens_details: { reasoning_tokens: counts.reasoning ?? 0 },
    total_tokens: counts.prompt + counts.completion,
  };
  const finish = turn.finishReason === undefined ? "stop" : turn.finishReason;
  if (finish === "length" || finish === "content_filter") {
    const reason = finish === "length" ? "max_output_tokens" : "content_filter";
    frames.push(
      event("response.incomplete", { response: response("incomplete", { usage, incomplete_details: { reason } }) }),
    );
  } else if (finish !== null) {
    frames.push(event("response.completed", { response: response("completed", { usage }) }));
  }
  return frames;
}

function turnReply(turn: OpenAIMockTurn, request: RecordedRequest): WireReply {
  const error = turn.streamError;
  const errorFrame =
    error &&
    sseFrame(
      {
        type: "error",
        sequence_number: 0,
        error: { type: error.type ?? "server_error", code: error.code ?? null, message: error.message, param: null },
      },
      "error",
    );
  return streamReply(responsesTurnFrames(turn, request), turn, errorFrame);
}

/**
 * Starts a loopback server speaking the Responses API streaming wire (`POST /v1/responses`),
 * answering each request from `script` — the same script shape as {@link startOpenAIMockServer}.
 */
export async function startResponsesMockServer(script: OpenAIMockScript): Promise<OpenAIMockServer> {
  const server = await startProviderMockServer({
    route: (request) => request.method === "POST" && request.path.startsWith("/v1/responses"),
    script,
    turn: turnReply,
    error: openAIErrorReply,
    errorBody: (status, message) => ({
      error: { message, type: status === 404 ? "invalid_request_error" : "server_error", param: null, code: null },
    }),
  });
  return { ...server, baseUrl: `${server.origin}/v1` };
}
