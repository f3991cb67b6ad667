import type { ErrorKind } from "@x/llm-types";

/** A provider failure read as data: the typed cause, the provider's own text, its retry hint. */
export interface ClassifiedError {
  kind: ErrorKind;
  message: string;
  retryAfterMs?: number;
}

/** The wordings providers and gateways use for "the prompt did not fit" (OpenAI, Anthropic, vLLM, Ollama, ...). */
const CONTEXT_OVERFLOW =
  /context[ _-]?(length|window)|maximum context|prompt is too long|too many (input )?tokens|input is too long|reduce the length|exceeds? the (model'?s? )?(max|context)/i;

/**
 * True when a provider's error text or code says the prompt did not fit. Only for classifying a
 * provider's error response into `context_overflow`; a turn is read by its `errorKind`, never by
 * this.
 */
export function isContextOverflowText(text: string): boolean {
  return CONTEXT_OVERFLOW.test(text);
}

/**
 * The provider's retry hint in milliseconds: `retry-after-ms` first, then `retry-after` as seconds
 * or an HTTP date. Undefined when absent or unreadable.
 */
export function retryAfterFrom(headers: Headers | undefined, now = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get("retry-after-ms");
  if (ms !== null && ms.trim() !== "" && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const after = headers.get("retry-after");
  if (after === null || after.trim() === "") return undefined;
  if (Number.isFinite(Number(after))) return Math.max(0, Number(after) * 1000);
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Socket-level error codes from Node and undici: the connection failed, not the provider. */
const TRANSPORT_CODES = new Set(["ECONNRESET", "ECONNREFUSED", "ECONNABORTED", "EPIPE", "ETIMEDOUT", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "ENETDOWN"]);
/** What undici's fetch says when the body stream dies (`terminated`) or the socket closes. */
const TRANSPORT_MESSAGES = /^(terminated|fetch failed|other side closed|socket hang up|premature close)$/i;

/**
 * True when `error` (or one of its causes) is a failure of the connection itself — a reset, a
 * refusal, undici's `terminated` while reading a body — rather than something the provider said
 * or a bug. Read by shape (error codes, undici's wording), so it holds whatever SDK or `fetch` is
 * underneath; a `TypeError` from our own code is not a transport error.
 */
export function isTransportError(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && (TRANSPORT_CODES.has(code) || code.startsWith("UND_ERR_"))) return true;
    if (TRANSPORT_MESSAGES.test(current.message)) return true;
    current = current.cause;
  }
  return false;
}

/** An error's message with its first causes (`fetch failed (other side closed)`), for error text. */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const parts = [error.message];
  let cause = error.cause;
  for (let depth = 0; depth < 2 && cause instanceof Error; depth++) {
    parts.push(`(${cause.message})`);
    cause = cause.cause;
  }
  return parts.join(" ");
}
