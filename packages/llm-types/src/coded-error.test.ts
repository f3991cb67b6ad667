import { describe, expect, it } from "vitest";
import { CodedError, isCodedError } from "./coded-error";

class LeftCopyError extends CodedError<"left.bad" | "left.worse"> {
  override readonly name = "LeftCopyError";
}

/** What a second installed copy of a package builds: a class of its own over the same mark. */
function otherCopy(): CodedError {
  class SameNameError extends Error {
    readonly code = "left.bad";
  }
  const error = new SameNameError("from the other copy");
  Object.defineProperty(error, Symbol.for("@x/coded-error"), { value: true });
  return error;
}

describe("isCodedError", () => {
  it("reads the mark and the code, so it answers for an error from another copy where instanceof does not", () => {
    const error = otherCopy();
    expect(error instanceof LeftCopyError).toBe(false);
    expect(isCodedError(error)).toBe(true);
    expect(isCodedError(error, "left.bad")).toBe(true);
    expect(isCodedError(error, ["left.worse", "left.bad"])).toBe(true);
    expect(isCodedError(error, "left.worse")).toBe(false);
  });

  it("keeps the subclass, its name, its cause and instanceof", () => {
    const cause = new Error("root");
    const error = new LeftCopyError("left.worse", "it got worse", { cause });
    expect(error).toBeInstanceOf(LeftCopyError);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("LeftCopyError");
    expect(error.cause).toBe(cause);
    expect(isCodedError(error, "left.worse")).toBe(true);
    // The mark is not enumerable: logging or spreading the error does not show it.
    expect(JSON.stringify(error)).not.toContain("true");
  });

  it("is false for plain errors and values that only look alike", () => {
    for (const value of [new Error("x"), { code: "left.bad" }, "left.bad", null, undefined, 3])
      expect(isCodedError(value)).toBe(false);
  });
});
