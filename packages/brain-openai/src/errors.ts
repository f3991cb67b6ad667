import type { ErrorKind } from "@x/llm-types";
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError, OpenAIError } from "openai";

/** A failure read as data: the typed cause, the provider's text, and its retry hint. */
export interface ClassifiedError {
  kind: ErrorKind;
  message: string;
  retryAfterMs?: number;
}

const CONTEXT_OVERFLOW =
  /context[ _-]?length|context[ _-]?window|maximum context|prompt is too long|too many (input )?tokens|input is too long|reduce the length|exceeds? the (model'?s? )?(max|context)/i;

/** True when a provider's error text or code says the prompt did not fit. */
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

function byStatus(status: number, text: string): ErrorKind {
  if (status === 429) return "rate_limited";
  if (status === 401 || status === 403) return "auth";
  if (status === 408) return "timeout";
  if (status === 503 || status === 529) return "overloaded";
  if (status === 400 || status === 413 || status === 422) return isContextOverflowText(text) ? "context_overflow" : "bad_request";
  if (status >= 400 && status < 500) return "bad_request";
  return "provider";
}

/** An error the provider sent inside an otherwise healthy stream (no HTTP status to read). */
function byText(text: string): ErrorKind {
  if (isContextOverflowText(text)) return "context_overflow";
  if (/rate[ _-]?limit|too many requests/i.test(text)) return "rate_limited";
  if (/overloaded|capacity|unavailable/i.test(text)) return "overloaded";
  return "provider";
}

/** Reads any thrown value from the SDK (or around it) as a typed failure. */
export function classifyOpenAIError(error: unknown): ClassifiedError {
  if (error instanceof APIUserAbortError) return { kind: "aborted", message: error.message };
  if (error instanceof APIConnectionTimeoutError) return { kind: "timeout", message: error.message };
  if (error instanceof APIConnectionError) {
    const cause = (error as { cause?: unknown }).cause;
    const detail = cause instanceof Error ? `: ${cause.message}${cause.cause instanceof Error ? ` (${cause.cause.message})` : ""}` : "";
    return { kind: "network", message: `${error.message}${detail}` };
  }
  if (error instanceof APIError) {
    const text = [error.message, error.code, error.type].filter(Boolean).join(" ");
    const kind = error.status === undefined ? byText(text) : byStatus(error.status, text);
    const out: ClassifiedError = { kind, message: error.message };
    const retryAfterMs = kind === "rate_limited" || kind === "overloaded" ? retryAfterFrom(error.headers) : undefined;
    if (retryAfterMs !== undefined) out.retryAfterMs = retryAfterMs;
    return out;
  }
  if (error instanceof SyntaxError) return { kind: "provider", message: `malformed stream event: ${error.message}` };
  const message = error instanceof Error ? error.message : String(error);
  return { kind: "provider", message };
}

/**
 * True for a failure of the connection itself while reading the body (undici's `terminated`, a
 * socket reset): not something the provider said, so what already arrived can be kept.
 */
export function isTransportError(error: unknown): boolean {
  return error instanceof Error && !(error instanceof OpenAIError) && !(error instanceof SyntaxError);
}
