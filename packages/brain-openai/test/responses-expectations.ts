import {
  expectedErrorKind,
  isJsonObject,
  jsonNumber,
  jsonObjects,
  jsonString,
  parsedArguments,
  recordedPayloads,
  type ExpectedTurn,
  type Json,
  type RecordedStream,
} from "@x/brain-kit/testing";

/**
 * The turn a recorded Responses API stream describes, read from the finished output items (each
 * `response.output_item.done`, else the final response's `output`) rather than from the deltas.
 */
export function expectedResponsesTurn(recording: RecordedStream): ExpectedTurn {
  if (recording.status !== 200) {
    const error = isJsonObject(recording.body) && isJsonObject(recording.body.error) ? recording.body.error : {};
    return failed(
      expectedErrorKind(recording.status, jsonString(error.type) || jsonString(error.code), jsonString(error.message)),
    );
  }
  const done: Json[] = [];
  let final: Json | undefined;
  for (const { payload } of recordedPayloads(recording)) {
    if (!isJsonObject(payload)) continue;
    if (payload.type === "error" || isJsonObject(payload.error)) {
      const error = isJsonObject(payload.error) ? payload.error : {};
      return failed(
        expectedErrorKind(undefined, jsonString(error.code) || jsonString(error.type), jsonString(error.message)),
      );
    }
    if (payload.type === "response.output_item.done" && isJsonObject(payload.item)) done.push(payload.item);
    if (/^response\.(completed|incomplete|failed)$/.test(jsonString(payload.type)) && isJsonObject(payload.response))
      final = payload.response;
  }
  // Each item as it was streamed; the final response repeats them (re-encrypted reasoning included).
  const output = done.length ? done : final ? jsonObjects(final.output) : [];
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
      .flatMap((item) => jsonObjects(item.content))
      .filter((part) => part.type === "output_text")
      .map((part) => jsonString(part.text))
      .join(""),
    thinking: reasoning
      .map(
        (item) =>
          jsonObjects(item.summary)
            .map((part) => jsonString(part.text))
            .join("\n\n") +
          jsonObjects(item.content)
            .map((part) => jsonString(part.text))
            .join(""),
      )
      .join(""),
    toolCalls: output
      .filter((item) => item.type === "function_call")
      .map((item) => ({
        id: item.id ? `${jsonString(item.call_id)}|${jsonString(item.id)}` : jsonString(item.call_id),
        name: jsonString(item.name),
        arguments: parsedArguments(jsonString(item.arguments)),
      })),
    stopReason: "stop",
    signatures: reasoning.map((item) =>
      JSON.stringify({ id: item.id, encrypted_content: item.encrypted_content ?? null }),
    ),
  };
  if (final && isJsonObject(final.usage)) turn.usage = usage(final.usage);
  const status = final ? jsonString(final.status) : "";
  if (status === "failed") {
    const error = isJsonObject(final?.error) ? final.error : {};
    return {
      ...turn,
      stopReason: "error",
      errorKind: expectedErrorKind(undefined, jsonString(error.code), jsonString(error.message)),
    };
  }
  if (status === "incomplete") {
    const details = isJsonObject(final?.incomplete_details) ? final.incomplete_details : {};
    if (details.reason === "content_filter") return { ...turn, stopReason: "error", errorKind: "content_filter" };
    const produced = turn.text !== "" || turn.toolCalls.length > 0;
    return produced ? { ...turn, stopReason: "length" } : { ...turn, stopReason: "error", errorKind: "length_empty" };
  }
  return turn.toolCalls.length ? { ...turn, stopReason: "toolUse" } : turn;
}

function usage(usage: Json): NonNullable<ExpectedTurn["usage"]> {
  const input = isJsonObject(usage.input_tokens_details) ? usage.input_tokens_details : {};
  const output = isJsonObject(usage.output_tokens_details) ? usage.output_tokens_details : {};
  const reasoning = jsonNumber(output.reasoning_tokens);
  return {
    billed: (jsonNumber(usage.input_tokens) ?? 0) + (jsonNumber(usage.output_tokens) ?? 0),
    cacheRead: jsonNumber(input.cached_tokens) ?? 0,
    cacheWrite: 0,
    ...(reasoning !== undefined ? { reasoning } : {}),
  };
}
