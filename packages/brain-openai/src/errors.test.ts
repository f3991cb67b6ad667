import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError, BadRequestError } from "openai";
import { describe, expect, it } from "vitest";
import { classifyOpenAIError } from "./errors";

describe("classifyOpenAIError", () => {
  it("reads the SDK's connection, timeout and abort errors", () => {
    expect(
      classifyOpenAIError(
        new APIConnectionError({ message: "Connection error.", cause: new TypeError("fetch failed") }),
      ),
    ).toEqual({ kind: "network", message: "Connection error. (fetch failed)" });
    expect(classifyOpenAIError(new APIConnectionTimeoutError())).toMatchObject({ kind: "timeout" });
    expect(classifyOpenAIError(new APIUserAbortError())).toMatchObject({ kind: "aborted" });
  });

  it("reads a context overflow from the error code even when the text is terse", () => {
    const error = new BadRequestError(
      400,
      { message: "Bad input", code: "context_length_exceeded" },
      undefined,
      new Headers(),
    );
    expect(classifyOpenAIError(error)?.kind).toBe("context_overflow");
  });

  it("passes no retry hint on kinds that are not retried after a wait", () => {
    const error = APIError.generate(
      401,
      { error: { message: "nope" } },
      undefined,
      new Headers({ "retry-after": "5" }),
    );
    expect(classifyOpenAIError(error)).toEqual({ kind: "auth", message: "401 nope" });
  });

  it("reads an in-stream error (no status) by its text; a per-minute token limit is a rate limit, no overflow", () => {
    const inStream = (message: string) => new APIError(undefined, { message }, message, new Headers());
    expect(classifyOpenAIError(inStream("Rate limit reached: too many tokens per minute"))?.kind).toBe("rate_limited");
    expect(classifyOpenAIError(inStream("This model's maximum context length is 8192 tokens"))?.kind).toBe(
      "context_overflow",
    );
    expect(classifyOpenAIError(inStream("Model is overloaded, try again"))?.kind).toBe("overloaded");
    expect(classifyOpenAIError(inStream("Something broke"))?.kind).toBe("provider");
  });

  it("leaves what is not the SDK's to the caller: a dropped connection or a bug", () => {
    expect(classifyOpenAIError(new TypeError("terminated"))).toBeUndefined();
    expect(classifyOpenAIError(new Error("boom"))).toBeUndefined();
    expect(classifyOpenAIError(new SyntaxError("Unexpected token"))).toMatchObject({
      kind: "provider",
      message: "malformed stream event: Unexpected token",
    });
  });
});
