import { ERROR_KINDS, type AssistantMessage, type ErrorKind } from "@x/llm-types";
import { describe, expect, it } from "vitest";
import {
  RETRYABLE_ERROR_KINDS,
  isAborted,
  isContextOverflow,
  isDegenerateCutMessage,
  isLengthEmpty,
  isPartialToolCallCut,
  isRetryable,
  isRetryableKind,
  isStreamCut,
} from "./cause";

function turn(overrides: Partial<AssistantMessage> = {}): AssistantMessage {
  return {
    role: "assistant",
    content: [],
    api: "faux",
    provider: "faux",
    model: "m",
    usage: {
      input: 0,
      output: 0,
      cacheRead: 0,
      cacheWrite: 0,
      totalTokens: 0,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    },
    stopReason: "stop",
    timestamp: 0,
    ...overrides,
  };
}

describe("isDegenerateCutMessage", () => {
  it("reads errorKind and accepts a bare carrier", () => {
    expect(isDegenerateCutMessage({ errorKind: "degenerate_repetition" })).toBe(true);
    expect(isDegenerateCutMessage(turn({ stopReason: "error", errorKind: "degenerate_repetition" }))).toBe(true);
    expect(isDegenerateCutMessage({})).toBe(false);
    expect(isDegenerateCutMessage({ errorKind: "length_empty" })).toBe(false);
  });

  it("does not also demand stopReason error", () => {
    expect(isDegenerateCutMessage(turn({ stopReason: "stop", errorKind: "degenerate_repetition" }))).toBe(true);
  });

  it("has no prose fallback: a sentinel errorMessage without errorKind is not recognised", () => {
    const prose = turn({
      stopReason: "error",
      errorMessage: "degenerate repetition: the model repeated itself; stream cut",
    });
    expect(isDegenerateCutMessage(prose)).toBe(false);
  });
});

describe("cause predicates", () => {
  it("isLengthEmpty reads length_empty only", () => {
    expect(isLengthEmpty({ errorKind: "length_empty" })).toBe(true);
    expect(isLengthEmpty(turn({ stopReason: "length" }))).toBe(false);
    expect(isLengthEmpty({ errorKind: "degenerate_repetition" })).toBe(false);
  });

  it("isContextOverflow reads context_overflow only", () => {
    expect(isContextOverflow({ errorKind: "context_overflow" })).toBe(true);
    expect(
      isContextOverflow({ errorKind: "bad_request", errorMessage: "context length exceeded" } as AssistantMessage),
    ).toBe(false);
  });

  it("isPartialToolCallCut: a truncated tool call, or a length stop carrying a tool call", () => {
    const call = { type: "toolCall" as const, id: "c", name: "write", arguments: {} };
    expect(isPartialToolCallCut(turn({ stopReason: "length", content: [call] }))).toBe(true);
    expect(
      isPartialToolCallCut(
        turn({
          stopReason: "stop",
          partialFinalized: true,
          content: [{ ...call, argumentsError: "truncated", rawArguments: "{" }],
        }),
      ),
    ).toBe(true);
    expect(isPartialToolCallCut(turn({ stopReason: "length", content: [{ type: "text", text: "cut here" }] }))).toBe(
      false,
    );
    expect(isPartialToolCallCut(turn({ stopReason: "toolUse", content: [call] }))).toBe(false);
    expect(
      isPartialToolCallCut(
        turn({ stopReason: "toolUse", content: [{ ...call, argumentsError: "malformed_json", rawArguments: "{x" }] }),
      ),
    ).toBe(false);
  });

  it("isRetryableKind: exactly rate_limited, overloaded, timeout, network, provider", () => {
    const retryable = ERROR_KINDS.filter((kind) => isRetryableKind(kind));
    expect(retryable.sort()).toEqual(["network", "overloaded", "provider", "rate_limited", "timeout"]);
    expect([...RETRYABLE_ERROR_KINDS].sort()).toEqual(retryable);
    expect(isRetryableKind(undefined)).toBe(false);
  });

  it("isRetryable: an error turn with a retryable kind, or a stream cut", () => {
    for (const kind of ERROR_KINDS) {
      expect(isRetryable(turn({ stopReason: "error", errorKind: kind }))).toBe(isRetryableKind(kind));
    }
    // A kept partial is not an answer: the provider never finished it, so it is asked again.
    expect(isRetryable(turn({ stopReason: "stop", partialFinalized: true, errorKind: "timeout" }))).toBe(true);
    expect(isRetryable(turn({ stopReason: "stop", partialFinalized: true, errorKind: "network" }))).toBe(true);
    expect(isRetryable(turn({ stopReason: "stop" }))).toBe(false);
    expect(isRetryable(turn({ stopReason: "error" }))).toBe(false);
  });

  it("isStreamCut: a kept partial, never an abort", () => {
    expect(isStreamCut(turn({ stopReason: "stop", partialFinalized: true, errorKind: "network" }))).toBe(true);
    expect(isStreamCut(turn({ stopReason: "stop", partialFinalized: true }))).toBe(true);
    expect(isStreamCut(turn({ stopReason: "stop" }))).toBe(false);
    expect(isStreamCut(turn({ stopReason: "length" }))).toBe(false);
    expect(isStreamCut(turn({ stopReason: "aborted", errorKind: "aborted", partialFinalized: true }))).toBe(false);
  });

  it("isAborted: stopReason aborted or errorKind aborted", () => {
    expect(isAborted(turn({ stopReason: "aborted", errorKind: "aborted" }))).toBe(true);
    expect(isAborted(turn({ stopReason: "aborted" }))).toBe(true);
    expect(isAborted({ stopReason: "error", errorKind: "aborted" })).toBe(true);
    const others: ErrorKind[] = ERROR_KINDS.filter((k) => k !== "aborted");
    for (const kind of others) expect(isAborted({ stopReason: "error", errorKind: kind })).toBe(false);
  });
});
