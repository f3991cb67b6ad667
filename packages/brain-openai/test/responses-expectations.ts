import {
  expectedErrorKind,
  parsedArguments,
  recordedPayloads,
  type ExpectedTurn,
  type RecordedStream,
} from "@x/brain-kit/testing";

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const str = (value: unknown): string => (typeof value === "string" ? value : "");
const num = (value: unknown): number | undefined => (typeof value === "number" ? value : undefined);
const list = (value: unknown): Json[] => (Array.isArray(value) ? value.filter(isObject) : []);

/**
 * The turn a recorded Responses API stream describes, read from the finished output items (each
 * `response.output_item.done`, else the final response's `output`) rather than from the deltas.
 */
export function expectedResponsesTurn(recording: RecordedStream): ExpectedTurn {
  if (recording.status !== 200) {
    const error = isObject(recording.body) && isObject(recording.body.error) ? recording.body.error : {};
    return failed(expectedErrorKind(recording.status, str(error.type) || str(error.code), str(error.message)));
  }
  const done: Json[] = [];
  let final: Json | undefined;
  for (const { payload } of recordedPayloads(recording)) {
    if (!isObject(payload)) continue;
    if (payload.type === "error" || isObject(payload.error)) {
      const error = isObject(payload.error) ? payload.error : {};
      return failed(expectedErrorKind(undefined, str(error.code) || str(error.type), str(error.message)));
    }
    if (payload.type === "response.output_item.done" && isObject(payload.item)) done.push(payload.item);
    if (/^response\.(completed|incomplete|failed)$/.test(str(payload.type)) && isObject(payload.response))
      final = payload.response;
  }
  // Each item as it was streamed; the final response repeats them (re-encrypted reasoning included).
  const output = done.length ? done : final ? list(final.output) : [];
  return fromOutput(output, final);
}

function failed(errorKind: ExpectedTurn["errorKind"]): ExpectedTurn {
  return { text: "", thinking: "", toolCalls: [], stopReason: "error", errorKind };
}

function fromOutput(output: Json[], final: Json | undefined): ExpectedTurn {
  const reasoning = output.filter((item) => item.type === "reasoning");
  const turn: ExpectedTurn = {
    text: output
      .filter((item) => item.type === "message")
      .flatMap((item) => list(item.content))
      .filter((part) => part.type === "output_text")
      .map((part) => str(part.text))
      .join(""),
    thinking: reasoning
      .map(
        (item) =>
          list(item.summary)
            .map((part) => str(part.text))
            .join("\n\n") +
          list(item.content)
            .map((part) => str(part.text))
            .join(""),
      )
      .join(""),
    toolCalls: output
      .filter((item) => item.type === "function_call")
      .map((item) => ({
        id: item.id ? `${str(item.call_id)}|${str(item.id)}` : str(item.call_id),
        name: str(item.name),
        arguments: parsedArguments(str(item.arguments)),
      })),
    stopReason: "stop",
    signatures: reasoning.map((item) =>
      JSON.stringify({ id: item.id, encrypted_content: item.encrypted_content ?? null }),
    ),
  };
  if (final && isObject(final.usage)) turn.usage = usage(final.usage);
  const status = final ? str(final.status) : "";
  if (status === "failed") {
    const error = isObject(final?.error) ? final.error : {};
    return {
      ...turn,
      stopReason: "error",
      errorKind: expectedErrorKind(undefined, str(error.code), str(error.message)),
    };
  }
  if (status === "incomplete") {
    const details = isObject(final?.incomplete_details) ? final.incomplete_details : {};
    if (details.reason === "content_filter") return { ...turn, stopReason: "error", errorKind: "content_filter" };
    const produced = turn.text !== "" || turn.toolCalls.length > 0;
    return produced ? { ...turn, stopReason: "length" } : { ...turn, stopReason: "error", errorKind: "length_empty" };
  }
  return turn.toolCalls.length ? { ...turn, stopReason: "toolUse" } : turn;
}

function usage(usage: Json): NonNullable<ExpectedTurn["usage"]> {
  const input = isObject(usage.input_tokens_details) ? usage.input_tokens_details : {};
  const output = isObject(usage.output_tokens_details) ? usage.output_tokens_details : {};
  const reasoning = num(output.reasoning_tokens);
  return {
    billed: (num(usage.input_tokens) ?? 0) + (num(usage.output_tokens) ?? 0),
    cacheRead: num(input.cached_tokens) ?? 0,
    cacheWrite: 0,
    ...(reasoning ? { reasoning } : {}),
  };
}
