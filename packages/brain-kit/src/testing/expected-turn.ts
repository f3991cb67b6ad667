import {
  assistantText,
  assistantToolCalls,
  type AssistantMessage,
  type ErrorKind,
  type StopReason,
} from "@x/llm-types";

/**
 * What a recorded turn must read as, worked out from the recording's own JSON by the small readers
 * beside this file — never by running a brain. Undefined fields are not checked.
 */
export interface ExpectedTurn {
  text: string;
  thinking: string;
  toolCalls: Array<{ id?: string; name: string; arguments: unknown }>;
  stopReason: StopReason;
  errorKind?: ErrorKind;
  /** Provider-reported counts, when the recording has them. */
  usage?: {
    /** Every token the provider billed: input (uncached) + cache read + cache write + output. */
    billed: number;
    cacheRead: number;
    cacheWrite: number;
    reasoning?: number;
  };
  /** Signatures of the thinking blocks, in order (Anthropic). */
  signatures?: string[];
  /** Redacted thinking payloads, in order (Anthropic). */
  redacted?: string[];
}

/** A recorded in-stream or HTTP error, read by its status or type the way the providers document them. */
export function expectedErrorKind(status: number | undefined, type: string | undefined, message: string): ErrorKind {
  if (type && /rate_limit|insufficient_quota/.test(type)) return "rate_limited";
  if (type === "overloaded_error") return "overloaded";
  if (type === "authentication_error" || type === "permission_error") return "auth";
  if (status === 429) return "rate_limited";
  if (status === 401 || status === 403) return "auth";
  if (status === 503 || status === 529) return "overloaded";
  const fourHundred = (status !== undefined && status >= 400 && status < 500) || type === "invalid_request_error";
  if (fourHundred) return /context|too long|maximum/i.test(message) ? "context_overflow" : "bad_request";
  return "provider";
}

/** Tool-call arguments as the model wrote them: JSON text parsed, nothing written ⇒ `{}`. */
export function parsedArguments(text: string): unknown {
  return text.trim() === "" ? {} : JSON.parse(text);
}

/**
 * The same facts read off a brain's final message, shaped like `expected` so one `toEqual` compares
 * them: usage only when the recording reported it, signatures and redacted payloads only when the
 * reader listed them.
 */
export function observedTurn(message: AssistantMessage, expected: ExpectedTurn): ExpectedTurn {
  const thinking = message.content.filter((block) => block.type === "thinking");
  const observed: ExpectedTurn = {
    text: assistantText(message),
    thinking: thinking
      .filter((block) => !block.redacted)
      .map((block) => block.thinking)
      .join(""),
    toolCalls: assistantToolCalls(message).map((call) => ({
      ...(expected.toolCalls.some((want) => want.id !== undefined) ? { id: call.id } : {}),
      name: call.name,
      arguments: call.arguments,
    })),
    stopReason: message.stopReason,
  };
  if (message.errorKind !== undefined || expected.errorKind !== undefined) observed.errorKind = message.errorKind;
  if (expected.usage) {
    const { input, cacheRead, cacheWrite, output, reasoning } = message.usage;
    observed.usage = { billed: input + cacheRead + cacheWrite + output, cacheRead, cacheWrite };
    if (expected.usage.reasoning !== undefined) observed.usage.reasoning = reasoning;
  }
  if (expected.signatures) observed.signatures = thinking.filter((b) => !b.redacted).map((b) => b.signature ?? "");
  if (expected.redacted) observed.redacted = thinking.filter((b) => b.redacted).map((b) => b.thinking);
  return observed;
}

/** A JSON object (not an array). For the small readers that work out a recording's expected turn. */
export type Json = Record<string, unknown>;
export const isJsonObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);
/** The value when it is a string, else "". */
export const jsonString = (value: unknown): string => (typeof value === "string" ? value : "");
/** The value when it is a number, else undefined. */
export const jsonNumber = (value: unknown): number | undefined => (typeof value === "number" ? value : undefined);
/** The objects of an array value; [] for anything else. */
export const jsonObjects = (value: unknown): Json[] => (Array.isArray(value) ? value.filter(isJsonObject) : []);
