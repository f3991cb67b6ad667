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

/** Text and thinking carried by a `content` that is a string or a list of parts (Mistral). */
function contentParts(content: unknown): { text: string; thinking: string } {
  if (typeof content === "string") return { text: content, thinking: "" };
  let text = "";
  let thinking = "";
  for (const part of Array.isArray(content) ? content : []) {
    if (!isObject(part)) continue;
    if (part.type === "text") text += str(part.text);
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
    const error = isObject(recording.body) && isObject(recording.body.error) ? recording.body.error : {};
    const kind = expectedErrorKind(recording.status, str(error.type) || str(error.code), str(error.message));
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
    if (!isObject(payload)) continue;
    if (isObject(payload.error)) {
      // The official SDK raises on an error chunk, so nothing in it (its usage neither) reaches a
      // client; after a finish reason the provider had already finished and the finish stands.
      if (finish === undefined) error = payload.error;
      break;
    }
    if (isObject(payload.usage)) usage = payload.usage;
    for (const choice of Array.isArray(payload.choices) ? payload.choices : []) {
      if (!isObject(choice) || (choice.index ?? 0) !== 0) continue;
      const delta = isObject(choice.delta) ? choice.delta : {};
      const parts = contentParts(delta.content);
      text += parts.text;
      thinking += str(delta.reasoning_content) || str(delta.reasoning) || parts.thinking;
      refusal += str(delta.refusal);
      for (const call of Array.isArray(delta.tool_calls) ? delta.tool_calls : []) {
        if (!isObject(call)) continue;
        const index = num(call.index) ?? 0;
        const fn = isObject(call.function) ? call.function : {};
        const known = calls.get(index) ?? { name: "", args: "" };
        if (!known.id && str(call.id)) known.id = str(call.id);
        if (!known.name) known.name = str(fn.name);
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
    const status = num(error.code) ?? num(error.status_code);
    return { ...turn, stopReason: "error", errorKind: expectedErrorKind(status, str(error.type), str(error.message)) };
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
  const prompt = num(usage.prompt_tokens) ?? 0;
  const completion = num(usage.completion_tokens) ?? 0;
  const billed = Math.max(num(usage.total_tokens) ?? 0, prompt + completion);
  const promptDetails = isObject(usage.prompt_tokens_details) ? usage.prompt_tokens_details : {};
  const completionDetails = isObject(usage.completion_tokens_details) ? usage.completion_tokens_details : {};
  const reasoning = num(completionDetails.reasoning_tokens);
  return {
    billed,
    cacheRead: num(promptDetails.cached_tokens) ?? 0,
    cacheWrite: 0,
    ...(reasoning ? { reasoning } : {}),
  };
}
