import type { ErrorKind } from "@x/llm-types";

/** A provider failure read as data: the typed cause, the provider's own text, its retry hint. */
export interface ClassifiedError {
  kind: ErrorKind;
  message: string;
  retryAfterMs?: number;
}

/** The wordings providers and gateways use for "the prompt did not fit" (OpenAI, Anthropic, vLLM, Ollama, ...). */
const CONTEXT_OVERFLOW = new RegExp(
  [
    "context[ _-]?(length|window)",
    "maximum context",
    "prompt is too long",
    "too many (input )?tokens",
    "input is too long",
    "reduce the length",
    "exceeds? the (model'?s? )?(max|context)",
  ].join("|"),
  "i",
);

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

/**
 * The kind an HTTP error status means, the same for every provider: 429 ⇒ `rate_limited`,
 * 401/403 ⇒ `auth`, 408/504 ⇒ `timeout`, 503/529 ⇒ `overloaded`, another 4xx ⇒ `context_overflow`
 * when `text` (the provider's message and code) says the prompt did not fit, else `bad_request`;
 * anything else ⇒ `provider`.
 */
export function kindForStatus(status: number, text: string): ErrorKind {
  if (status === 429) return "rate_limited";
  if (status === 401 || status === 403) return "auth";
  if (status === 408 || status === 504) return "timeout";
  if (status === 503 || status === 529) return "overloaded";
  if (status >= 400 && status < 500) return isContextOverflowText(text) ? "context_overflow" : "bad_request";
  return "provider";
}

/**
 * A provider's error response as a {@link ClassifiedError}: its kind and text, plus the retry hint
 * from its headers when the kind is one worth waiting out (`rate_limited`, `overloaded`).
 */
export function providerFailure(kind: ErrorKind, message: string, headers: Headers | undefined): ClassifiedError {
  const out: ClassifiedError = { kind, message };
  const retryAfterMs = kind === "rate_limited" || kind === "overloaded" ? retryAfterFrom(headers) : undefined;
  if (retryAfterMs !== undefined) out.retryAfterMs = retryAfterMs;
  return out;
}

/** Socket-level error codes from Node and undici: the connection failed, not the provider. */
const TRANSPORT_CODES = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENETDOWN",
]);
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
