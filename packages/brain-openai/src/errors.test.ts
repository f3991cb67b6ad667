import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError, BadRequestError } from "openai";
import { describe, expect, it } from "vitest";
import { classifyOpenAIError, isTransportError, retryAfterFrom } from "./errors";

describe("retryAfterFrom", () => {
  it("reads retry-after-ms, retry-after seconds and an HTTP date", () => {
    expect(retryAfterFrom(new Headers({ "retry-after-ms": "250" }))).toBe(250);
    expect(retryAfterFrom(new Headers({ "retry-after": "3" }))).toBe(3000);
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(retryAfterFrom(new Headers({ "retry-after": "Thu, 01 Jan 2026 00:00:10 GMT" }), now)).toBe(10_000);
    expect(retryAfterFrom(new Headers({ "retry-after": "soon" }))).toBeUndefined();
    expect(retryAfterFrom(undefined)).toBeUndefined();
  });
});

describe("classifyOpenAIError", () => {
  it("reads the SDK's connection, timeout and abort errors", () => {
    expect(classifyOpenAIError(new APIConnectionError({ message: "Connection error.", cause: new TypeError("fetch failed") }))).toMatchObject({ kind: "network", message: "Connection error.: fetch failed" });
    expect(classifyOpenAIError(new APIConnectionTimeoutError())).toMatchObject({ kind: "timeout" });
    expect(classifyOpenAIError(new APIUserAbortError())).toMatchObject({ kind: "aborted" });
  });

  it("reads a context overflow from the error code even when the text is terse", () => {
    const error = new BadRequestError(400, { message: "Bad input", code: "context_length_exceeded" }, undefined, new Headers());
    expect(classifyOpenAIError(error).kind).toBe("context_overflow");
  });

  it("passes no retry hint on kinds that are not retried after a wait", () => {
    const error = APIError.generate(401, { error: { message: "nope" } }, undefined, new Headers({ "retry-after": "5" }));
    expect(classifyOpenAIError(error)).toEqual({ kind: "auth", message: "401 nope" });
  });

  it("separates transport errors from what the provider said", () => {
    expect(isTransportError(new TypeError("terminated"))).toBe(true);
    expect(isTransportError(new APIConnectionError({}))).toBe(false);
    expect(isTransportError(new SyntaxError("Unexpected token"))).toBe(false);
  });
});
