import { AnthropicError, APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from "@anthropic-ai/sdk";
import type { ErrorKind } from "@x/llm-types";

/** A failure read as data: the typed cause, the provider's text, and its retry hint. */
export interface ClassifiedError {
  kind: ErrorKind;
  message: string;
  retryAfterMs?: number;
}

const CONTEXT_OVERFLOW = /prompt is too long|context[ _-]?(length|window)|maximum context|too many (input )?tokens|input is too long|exceeds? the (model'?s? )?(max|context)/i;

/** True when the provider's error text says the prompt did not fit. */
export function isContextOverflowText(text: string): boolean {
  return CONTEXT_OVERFLOW.test(text);
}

/** The retry hint in ms: `retry-after-ms`, then `retry-after` as seconds or an HTTP date. */
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

/** Anthropic's error `type`s, which also arrive inside a stream where there is no status to read. */
function byType(type: string | null, text: string): ErrorKind | undefined {
  switch (type) {
    case "rate_limit_error":
      return "rate_limited";
    case "overloaded_error":
      return "overloaded";
    case "authentication_error":
    case "permission_error":
      return "auth";
    case "timeout_error":
      return "timeout";
    case "invalid_request_error":
    case "request_too_large":
      return isContextOverflowText(text) ? "context_overflow" : "bad_request";
    case "api_error":
      return "provider";
    default:
      return undefined;
  }
}

function byStatus(status: number, text: string): ErrorKind {
  if (status === 429) return "rate_limited";
  if (status === 401 || status === 403) return "auth";
  if (status === 408 || status === 504) return "timeout";
  if (status === 503 || status === 529) return "overloaded";
  if (status >= 400 && status < 500) return isContextOverflowText(text) ? "context_overflow" : "bad_request";
  return "provider";
}

/** Reads any thrown value from the SDK (or around it) as a typed failure. */
export function classifyAnthropicError(error: unknown): ClassifiedError {
  if (error instanceof APIUserAbortError) return { kind: "aborted", message: error.message };
  if (error instanceof APIConnectionTimeoutError) return { kind: "timeout", message: error.message };
  if (error instanceof APIConnectionError) {
    const cause = (error as { cause?: unknown }).cause;
    const detail = cause instanceof Error ? `: ${cause.message}${cause.cause instanceof Error ? ` (${cause.cause.message})` : ""}` : "";
    return { kind: "network", message: `${error.message}${detail}` };
  }
  if (error instanceof APIError) {
    const text = error.message;
    const kind = (error.status === undefined ? undefined : byStatus(error.status, text)) ?? byType(error.type, text) ?? "provider";
    const out: ClassifiedError = { kind, message: error.message };
    const retryAfterMs = kind === "rate_limited" || kind === "overloaded" ? retryAfterFrom(error.headers) : undefined;
    if (retryAfterMs !== undefined) out.retryAfterMs = retryAfterMs;
    return out;
  }
  if (error instanceof SyntaxError) return { kind: "provider", message: `malformed stream event: ${error.message}` };
  return { kind: "provider", message: error instanceof Error ? error.message : String(error) };
}

/**
 * True for a failure of the connection itself while reading the body (undici's `terminated`, a
 * socket reset): not something the provider said, so what already arrived can be kept.
 */
export function isTransportError(error: unknown): boolean {
  return error instanceof Error && !(error instanceof AnthropicError) && !(error instanceof SyntaxError);
}
