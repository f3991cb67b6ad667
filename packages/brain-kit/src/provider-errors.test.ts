import { describe, expect, it } from "vitest";
import { describeError } from "@x/llm-types";
import {
  isContextOverflowText,
  isTransportError,
  kindForStatus,
  providerFailure,
  retryAfterFrom,
} from "./provider-errors";

describe("retryAfterFrom", () => {
  it("reads retry-after-ms first, then retry-after as seconds or an HTTP date", () => {
    expect(retryAfterFrom(new Headers({ "retry-after-ms": "250", "retry-after": "9" }))).toBe(250);
    expect(retryAfterFrom(new Headers({ "retry-after": "3" }))).toBe(3000);
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(retryAfterFrom(new Headers({ "retry-after": "Thu, 01 Jan 2026 00:00:10 GMT" }), now)).toBe(10_000);
    expect(retryAfterFrom(new Headers({ "retry-after": "Wed, 31 Dec 2025 23:59:00 GMT" }), now)).toBe(0);
  });

  it("is undefined when absent or unreadable", () => {
    expect(retryAfterFrom(new Headers({ "retry-after": "soon" }))).toBeUndefined();
    expect(retryAfterFrom(new Headers({ "retry-after-ms": " " }))).toBeUndefined();
    expect(retryAfterFrom(new Headers())).toBeUndefined();
    expect(retryAfterFrom(undefined)).toBeUndefined();
  });
});

describe("isContextOverflowText", () => {
  it.each([
    "This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens.",
    "context_length_exceeded",
    "prompt is too long: 215000 tokens > 200000 maximum",
    "input is too long for requested model",
    "Please reduce the length of the messages.",
    "the request exceeds the model's context window",
  ])("recognises %j", (text) => expect(isContextOverflowText(text)).toBe(true));

  it.each([
    "Invalid value for 'tool_choice'",
    "messages.1.content.0: unexpected tool_use_id",
    "Rate limit reached for requests",
  ])("leaves %j alone", (text) => {
    expect(isContextOverflowText(text)).toBe(false);
  });
});

describe("isTransportError", () => {
  const withCause = (message: string, cause: unknown) => Object.assign(new Error(message), { cause });
  const socketError = Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" });

  it("recognises undici's mid-body failure and socket codes anywhere in the cause chain", () => {
    expect(isTransportError(withCause("terminated", socketError))).toBe(true);
    expect(isTransportError(new TypeError("terminated"))).toBe(true);
    expect(isTransportError(withCause("Connection error.", withCause("fetch failed", socketError)))).toBe(true);
    expect(isTransportError(Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }))).toBe(true);
  });

  it("does not take a bug, a parse error or a provider error for a dropped connection", () => {
    expect(isTransportError(new TypeError("Cannot read properties of undefined (reading 'content')"))).toBe(false);
    expect(isTransportError(new SyntaxError("Unexpected token"))).toBe(false);
    expect(isTransportError(Object.assign(new Error("429 slow down"), { status: 429 }))).toBe(false);
    expect(isTransportError("terminated")).toBe(false);
    expect(isTransportError(undefined)).toBe(false);
  });
});

describe("describeError", () => {
  it("names the error and its first causes", () => {
    expect(describeError(Object.assign(new Error("fetch failed"), { cause: new Error("other side closed") }))).toBe(
      "fetch failed (other side closed)",
    );
    expect(describeError("plain")).toBe("plain");
  });
});

describe("kindForStatus", () => {
  it("maps statuses to kinds, reading the text only to tell an overflow from another 4xx", () => {
    expect(kindForStatus(429, "too many tokens")).toBe("rate_limited");
    expect(kindForStatus(401, "")).toBe("auth");
    expect(kindForStatus(403, "")).toBe("auth");
    expect(kindForStatus(408, "")).toBe("timeout");
    expect(kindForStatus(504, "")).toBe("timeout");
    expect(kindForStatus(503, "")).toBe("overloaded");
    expect(kindForStatus(529, "")).toBe("overloaded");
    expect(kindForStatus(400, "prompt is too long: 5 > 4")).toBe("context_overflow");
    expect(kindForStatus(413, "request too large")).toBe("bad_request");
    expect(kindForStatus(400, "invalid tool_choice")).toBe("bad_request");
    expect(kindForStatus(500, "maximum context length")).toBe("provider");
  });
});

describe("providerFailure", () => {
  it("carries the retry hint on rate limits and overloads only", () => {
    const headers = new Headers({ "retry-after": "2" });
    expect(providerFailure("rate_limited", "slow", headers)).toEqual({
      kind: "rate_limited",
      message: "slow",
      retryAfterMs: 2000,
    });
    expect(providerFailure("overloaded", "busy", headers)).toEqual({
      kind: "overloaded",
      message: "busy",
      retryAfterMs: 2000,
    });
    expect(providerFailure("auth", "no", headers)).toEqual({ kind: "auth", message: "no" });
    expect(providerFailure("rate_limited", "slow", undefined)).toEqual({ kind: "rate_limited", message: "slow" });
  });
});
