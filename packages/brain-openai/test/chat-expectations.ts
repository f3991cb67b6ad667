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

/** Text and thinking carried by a `content` that is a string or a list of parts (Mistral). */
function contentParts(content: unknown): { text: string; thinking: string } {
  if (typeof content === "string") return { text: content, thinking: "" };
  let text = "";
  let thinking = "";
  for (const part of Array.isArray(content) ? content : []) {
    if (!isJsonObject(part)) continue;
    if (part.type === "text") text += jsonString(part.text);
    if (part.type === "thinking") thinking += contentParts(part.thinking).text;
  }
  return { text, thinking };
}

interface Call {
  id?: string;
  name: string;
  args: string;
}

/** The turn a recorded Chat Completions stream describes: every fragment of choice 0, joined by tool-call index. */
export function expectedChatTurn(recording: RecordedStream): ExpectedTurn {
  if (recording.status !== 200) {
    const error = isJsonObject(recording.body) && isJsonObject(recording.body.error) ? recording.body.error : {};
    const kind = expectedErrorKind(
      recording.status,
      jsonString(error.type) || jsonString(error.code),
      jsonString(error.message),
    );
    return { text: "", thinking: "", toolCalls: [], stopReason: "error", errorKind: kind };
  }
  let text = "";
  let thinking = "";
  let refusal = "";
  let finish: string | undefined;
  let usage: Json | undefined;
  let error: Json | undefined;
  const calls = new Map<number, Call>();
  for (const { payload } of recordedPayloads(recording)) {
    if (!isJsonObject(payload)) continue;
    // An error chunk's usage is what the provider billed for the stream it failed (OpenRouter).
    if (isJsonObject(payload.usage)) usage = payload.usage;
    if (isJsonObject(payload.error)) {
      // After a finish reason the provider had already finished, and the finish stands.
      if (finish === undefined) error = payload.error;
      break;
    }
    for (const choice of Array.isArray(payload.choices) ? payload.choices : []) {
      if (!isJsonObject(choice) || (choice.index ?? 0) !== 0) continue;
      const delta = isJsonObject(choice.delta) ? choice.delta : {};
      const parts = contentParts(delta.content);
      text += parts.text;
      thinking += jsonString(delta.reasoning_content) || jsonString(delta.reasoning) || parts.thinking;
      refusal += jsonString(delta.refusal);
      for (const call of Array.isArray(delta.tool_calls) ? delta.tool_calls : []) {
        if (!isJsonObject(call)) continue;
        const index = jsonNumber(call.index) ?? 0;
        const fn = isJsonObject(call.function) ? call.function : {};
        const known = calls.get(index) ?? { name: "", args: "" };
        if (!known.id && jsonString(call.id)) known.id = jsonString(call.id);
        if (!known.name) known.name = jsonString(fn.name);
        known.args += typeof fn.arguments === "string" ? fn.arguments : "";
        calls.set(index, known);
      }
      if (typeof choice.finish_reason === "string") finish = choice.finish_reason;
    }
  }
  const toolCalls = [...calls.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, call]) => ({
      ...(call.id ? { id: call.id } : {}),
      name: call.name,
      arguments: parsedArguments(call.args),
    }));
  const turn: ExpectedTurn = { text, thinking, toolCalls, stopReason: "stop" };
  if (usage) turn.usage = chatUsage(usage);
  if (error) {
    const status = jsonNumber(error.code) ?? jsonNumber(error.status_code);
    return {
      ...turn,
      stopReason: "error",
      errorKind: expectedErrorKind(status, jsonString(error.type), jsonString(error.message)),
    };
  }
  if (finish === "tool_calls") return { ...turn, stopReason: "toolUse" };
  if (finish === "length") return text || toolCalls.length ? { ...turn, stopReason: "length" } : lengthEmpty(turn);
  if (finish === "content_filter" || refusal) return { ...turn, stopReason: "error", errorKind: "content_filter" };
  return turn;
}

function lengthEmpty(turn: ExpectedTurn): ExpectedTurn {
  return { ...turn, stopReason: "error", errorKind: "length_empty" };
}

/**
 * Billed tokens as the host reports them. `total_tokens` is what the host bills; where it is larger
 * than prompt + completion the difference is reasoning reported outside `completion_tokens` (xAI).
 */
function chatUsage(usage: Json): NonNullable<ExpectedTurn["usage"]> {
  const prompt = jsonNumber(usage.prompt_tokens) ?? 0;
  const completion = jsonNumber(usage.completion_tokens) ?? 0;
  const billed = Math.max(jsonNumber(usage.total_tokens) ?? 0, prompt + completion);
  const promptDetails = isJsonObject(usage.prompt_tokens_details) ? usage.prompt_tokens_details : {};
  const completionDetails = isJsonObject(usage.completion_tokens_details) ? usage.completion_tokens_details : {};
  const reasoning = jsonNumber(completionDetails.reasoning_tokens);
  return {
    billed,
    cacheRead: jsonNumber(promptDetails.cached_tokens) ?? 0,
    cacheWrite: 0,
    ...(reasoning !== undefined ? { reasoning } : {}),
  };
}
