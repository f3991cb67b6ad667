import { CodedError, isCodedError } from "@x/llm-types";
import { describe, expect, it } from "vitest";
import { closedError, isStrategyStoreError, notFound, StrategyStoreError } from "./errors";

/** What a second installed copy of this package throws: its own class, the same mark and name. */
function fromOtherCopy(): Error {
  class StrategyStoreError extends Error {
    override readonly name = "StrategyStoreError";
    readonly code = "busy";
    readonly fields: string[] = [];
  }
  const error = new StrategyStoreError("the database is busy");
  Object.defineProperty(error, Symbol.for("@x/coded-error"), { value: true });
  return error;
}

describe("StrategyStoreError", () => {
  it("is a CodedError: isCodedError reads its code, and its fields, cause and name are kept", () => {
    const cause = new Error("socket closed");
    const error = new StrategyStoreError("invalid_input", "bad input", { cause, fields: ["problem"] });
    expect(error).toBeInstanceOf(CodedError);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ name: "StrategyStoreError", code: "invalid_input", fields: ["problem"], cause });
    expect(isCodedError(error, "invalid_input")).toBe(true);
    expect(isCodedError(notFound(), "not_found")).toBe(true);
    expect(isCodedError(closedError(), ["busy", "closed"])).toBe(true);
    const bare = new StrategyStoreError("backend", "no cause");
    expect(bare.fields).toEqual([]);
    expect("cause" in bare).toBe(false);
  });

  it("isStrategyStoreError answers for an error of another copy of the package, where instanceof does not", () => {
    const error = fromOtherCopy();
    expect(error instanceof StrategyStoreError).toBe(false);
    expect(isStrategyStoreError(error)).toBe(true);
    expect(isStrategyStoreError(error, "busy")).toBe(true);
    expect(isStrategyStoreError(error, "closed")).toBe(false);
  });

  it("isStrategyStoreError is false for another package's coded error of the same code, and for look-alikes", () => {
    class QueueError extends CodedError<"not_found"> {
      override readonly name = "QueueError";
    }
    expect(isCodedError(new QueueError("not_found", "no task"), "not_found")).toBe(true);
    expect(isStrategyStoreError(new QueueError("not_found", "no task"))).toBe(false);
    const lookAlike = Object.assign(new Error("x"), { name: "StrategyStoreError", code: "busy" });
    expect(isStrategyStoreError(lookAlike)).toBe(false);
    expect(isStrategyStoreError(undefined)).toBe(false);
  });
});
