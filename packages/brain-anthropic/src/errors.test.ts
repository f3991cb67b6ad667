import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from "@anthropic-ai/sdk";
import { describe, expect, it } from "vitest";
import { classifyAnthropicError } from "./errors";

describe("classifyAnthropicError", () => {
  it("reads the SDK's connection, timeout and abort errors", () => {
    expect(
      classifyAnthropicError(
        new APIConnectionError({ message: "Connection error.", cause: new TypeError("fetch failed") }),
      ),
    ).toEqual({ kind: "network", message: "Connection error. (fetch failed)" });
    expect(classifyAnthropicError(new APIConnectionTimeoutError())).toMatchObject({ kind: "timeout" });
    expect(classifyAnthropicError(new APIUserAbortError())).toMatchObject({ kind: "aborted" });
  });

  it("reads an in-stream error (no status) by its error type", () => {
    const error = (
      type: "overloaded_error" | "rate_limit_error" | "invalid_request_error" | "authentication_error" | "api_error",
      message: string,
    ) => new APIError(undefined, { type: "error", error: { type, message } }, undefined, new Headers(), type);
    expect(classifyAnthropicError(error("overloaded_error", "Overloaded"))?.kind).toBe("overloaded");
    expect(classifyAnthropicError(error("rate_limit_error", "slow"))?.kind).toBe("rate_limited");
    expect(classifyAnthropicError(error("invalid_request_error", "prompt is too long: 1 > 0"))?.kind).toBe(
      "context_overflow",
    );
    expect(classifyAnthropicError(error("invalid_request_error", "bad field"))?.kind).toBe("bad_request");
    expect(classifyAnthropicError(error("authentication_error", "bad key"))?.kind).toBe("auth");
    expect(classifyAnthropicError(error("api_error", "Internal server error"))?.kind).toBe("provider");
  });

  it("passes the retry hint only on rate limits and overloads", () => {
    const headers = new Headers({ "retry-after": "4" });
    expect(
      classifyAnthropicError(
        APIError.generate(
          429,
          { type: "error", error: { type: "rate_limit_error", message: "slow" } },
          undefined,
          headers,
        ),
      ),
    ).toMatchObject({ kind: "rate_limited", retryAfterMs: 4000 });
    expect(
      classifyAnthropicError(
        APIError.generate(
          401,
          { type: "error", error: { type: "authentication_error", message: "no" } },
          undefined,
          headers,
        ),
      ),
    ).not.toHaveProperty("retryAfterMs");
  });

  it("leaves what is not the SDK's to the caller: a dropped connection or a bug", () => {
    expect(classifyAnthropicError(new TypeError("terminated"))).toBeUndefined();
    expect(classifyAnthropicError(new Error("boom"))).toBeUndefined();
    expect(classifyAnthropicError(new SyntaxError("Unexpected token"))).toMatchObject({
      kind: "provider",
      message: "malformed stream event: Unexpected token",
    });
  });
});
