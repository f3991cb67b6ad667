import { describeError } from "@x/llm-types";
import type { ErrorKind } from "@x/llm-types";
import { isContextOverflowText, kindForStatus, providerFailure, type ClassifiedError } from "@x/brain-kit";
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from "openai";

/**
 * The HTTP status an in-stream error carries in its body: OpenRouter puts it in a numeric `code`,
 * Groq in `status_code`. The SDK raises such an error with no status of its own.
 */
function bodyStatus(error: APIError): number | undefined {
  const body: unknown = error.error;
  if (typeof body !== "object" || body === null) return undefined;
  if ("code" in body && typeof body.code === "number") return body.code;
  return "status_code" in body && typeof body.status_code === "number" ? body.status_code : undefined;
}

/** An error the provider sent inside an otherwise healthy stream, read by its text and type. */
export function streamErrorKind(text: string): ErrorKind {
  // Rate-limit text first: "too many tokens per minute" is a rate limit, not an overflow.
  if (/rate[ _-]?limit|too many requests|per minute|insufficient_quota/i.test(text)) return "rate_limited";
  if (isContextOverflowText(text)) return "context_overflow";
  if (/overloaded|capacity|unavailable/i.test(text)) return "overloaded";
  if (/invalid_request_error/.test(text)) return "bad_request";
  return "provider";
}

/**
 * Reads an error the SDK raised (or a malformed stream event) as a typed failure. Undefined for
 * anything else — a dropped connection or a bug — which `runStreamedCall` tells apart by shape.
 */
export function classifyOpenAIError(error: unknown): ClassifiedError | undefined {
  if (error instanceof APIUserAbortError) return { kind: "aborted", message: error.message };
  if (error instanceof APIConnectionTimeoutError) return { kind: "timeout", message: error.message };
  if (error instanceof APIConnectionError) return { kind: "network", message: describeError(error) };
  if (error instanceof APIError) {
    const text = [error.message, error.code, error.type].filter(Boolean).join(" ");
    const status = error.status ?? bodyStatus(error);
    const kind = status === undefined ? streamErrorKind(text) : kindForStatus(status, text);
    return providerFailure(kind, error.message, error.headers);
  }
  if (error instanceof SyntaxError) return { kind: "provider", message: `malformed stream event: ${error.message}` };
  return undefined;
}
