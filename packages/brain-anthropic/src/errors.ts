import { describeError } from "@x/llm-types";
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from "@anthropic-ai/sdk";
import type { ErrorKind } from "@x/llm-types";
import { isContextOverflowText, kindForStatus, providerFailure, type ClassifiedError } from "@x/brain-kit";

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

/**
 * Reads an error the SDK raised (or a malformed stream event) as a typed failure. Undefined for
 * anything else — a dropped connection or a bug — which `runStreamedCall` tells apart by shape.
 */
export function classifyAnthropicError(error: unknown): ClassifiedError | undefined {
  if (error instanceof APIUserAbortError) return { kind: "aborted", message: error.message };
  if (error instanceof APIConnectionTimeoutError) return { kind: "timeout", message: error.message };
  if (error instanceof APIConnectionError) return { kind: "network", message: describeError(error) };
  if (error instanceof APIError) {
    const text = error.message;
    const kind =
      (error.status === undefined ? undefined : kindForStatus(error.status, text)) ??
      byType(error.type, text) ??
      "provider";
    return providerFailure(kind, error.message, error.headers);
  }
  if (error instanceof SyntaxError) return { kind: "provider", message: `malformed stream event: ${error.message}` };
  return undefined;
}
