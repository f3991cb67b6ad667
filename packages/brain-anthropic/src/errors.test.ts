import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from "@anthropic-ai/sdk";
import { describe, expect, it } from "vitest";
import { classifyAnthropicError, isTransportError, retryAfterFrom } from "./errors";

describe("retryAfterFrom", () => {
  it("reads retry-after-ms, retry-after seconds and an HTTP date", () => {
    expect(retryAfterFrom(new Headers({ "retry-after-ms": "250" }))).toBe(250);
    expect(retryAfterFrom(new Headers({ "retry-after": "3" }))).toBe(3000);
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(retryAfterFrom(new Headers({ "retry-after": "Thu, 01 Jan 2026 00:00:10 GMT" }), now)).toBe(10_000);
    expect(retryAfterFrom(new Headers({ "retry-after": "soon" }))).toBeUndefined();
  });
});

describe("classifyAnthropicError", () => {
  it("reads the SDK's connection, timeout and abort errors", () => {
    expect(classifyAnthropicError(new APIConnectionError({ message: "Connection error.", cause: new TypeError("fetch failed") }))).toMatchObject({ kind: "network" });
    expect(classifyAnthropicError(new APIConnectionTimeoutError())).toMatchObject({ kind: "timeout" });
    expect(classifyAnthropicError(new APIUserAbortError())).toMatchObject({ kind: "aborted" });
  });

  it("reads an in-stream error (no status) by its error type", () => {
    const body = (type: string, message: string) => ({ type: "error", error: { type, message } });
    expect(classifyAnthropicError(new APIError(undefined, body("overloaded_error", "Overloaded"), undefined, new Headers(), "overloaded_error")).kind).toBe("overloaded");
    expect(classifyAnthropicError(new APIError(undefined, body("rate_limit_error", "slow"), undefined, new Headers(), "rate_limit_error")).kind).toBe("rate_limited");
    expect(classifyAnthropicError(new APIError(undefined, body("invalid_request_error", "prompt is too long: 1 > 0"), undefined, new Headers(), "invalid_request_error")).kind).toBe("context_overflow");
    expect(classifyAnthropicError(new APIError(undefined, body("api_error", "Internal server error"), undefined, new Headers(), "api_error")).kind).toBe("provider");
  });

  it("separates transport errors from what the provider said", () => {
    expect(isTransportError(new TypeError("terminated"))).toBe(true);
    expect(isTransportError(new APIConnectionError({}))).toBe(false);
  });
});
