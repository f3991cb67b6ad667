import { describe, expect, it } from "vitest";
import { redactSecrets } from "./redact";

describe("redactSecrets", () => {
  it("replaces every occurrence of each secret", () => {
    expect(redactSecrets("key sk-abc123456 failed; retry with sk-abc123456", ["sk-abc123456"])).toBe("key [redacted] failed; retry with [redacted]");
  });

  it("replaces the longer of two overlapping secrets whole", () => {
    expect(redactSecrets("token abcd-efgh-ijkl", ["abcd", "abcd-efgh-ijkl"])).toBe("token [redacted]");
  });

  it("scrubs bearer tokens echoed back, whatever the key", () => {
    expect(redactSecrets("Authorization: Bearer eyJhbGciOi.payload.sig", [])).toBe("Authorization: Bearer [redacted]");
  });

  it("ignores missing and very short secrets, and leaves clean text alone", () => {
    expect(redactSecrets("a b c", [undefined, "", "a"])).toBe("a b c");
    expect(redactSecrets("nothing secret here", ["sk-zzzzzzzz"])).toBe("nothing secret here");
  });
});
