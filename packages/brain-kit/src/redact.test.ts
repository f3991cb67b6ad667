import { describe, expect, it } from "vitest";
import { credentialsIn, headerLines, redactSecrets } from "./redact";

describe("redactSecrets", () => {
  it("replaces every occurrence of each secret", () => {
    expect(redactSecrets("key sk-abc123456 failed; retry with sk-abc123456", ["sk-abc123456"])).toBe(
      "key [redacted] failed; retry with [redacted]",
    );
  });

  it("replaces the longer of two overlapping secrets whole", () => {
    expect(redactSecrets("token abcd-efgh-ijkl", ["abcd", "abcd-efgh-ijkl"])).toBe("token [redacted]");
  });

  it("scrubs bearer tokens echoed back, whatever the key", () => {
    expect(redactSecrets("Authorization: Bearer eyJhbGciOi.payload.sig", [])).toBe("Authorization: Bearer [redacted]");
  });

  it("scrubs a key echoed back base64-encoded, alone or inside a longer value, standard or URL-safe", () => {
    const key = "sk-live-0123456789abcdef";
    const alone = Buffer.from(key).toString("base64");
    expect(redactSecrets(`echo: ${alone}`, [key])).not.toContain(alone.slice(0, 16));
    for (const prefix of ["", "u", "us", "user:"]) {
      const basic = Buffer.from(`${prefix}${key}`).toString("base64");
      const out = redactSecrets(`Authorization: Basic ${basic}`, [key]);
      expect(out, prefix).toContain("[redacted]");
      expect(Buffer.from(out.split(" ").at(-1)!, "base64").toString("utf8"), prefix).not.toContain(key.slice(0, 12));
      const url = Buffer.from(`${prefix}${key}??>>`).toString("base64url");
      expect(redactSecrets(url, [key]), prefix).toContain("[redacted]");
    }
    expect(redactSecrets("aGVsbG8gd29ybGQ=", ["sk-live-0123456789abcdef"])).toBe("aGVsbG8gd29ybGQ=");
  });

  it("ignores missing and very short secrets, and leaves clean text alone", () => {
    expect(redactSecrets("a b c", [undefined, "", "a"])).toBe("a b c");
    expect(redactSecrets("nothing secret here", ["sk-zzzzzzzz"])).toBe("nothing secret here");
  });
});

describe("credentialsIn", () => {
  it("collects the key and every credential-looking header value, with and without its scheme", () => {
    const secrets = credentialsIn("sk-1", { Authorization: "Bearer tok-2", "x-trace": "t" }, undefined, {
      "x-api-key": "k-3",
      Cookie: "c=4",
    });
    expect(secrets).toEqual(["sk-1", "Bearer tok-2", "tok-2", "k-3", "k-3", "c=4", "c=4"]);
    expect(credentialsIn(undefined, { accept: "json" })).toEqual([]);
  });
});

describe("headerLines", () => {
  it("reads `Name: value` lines, keeping colons inside values and skipping other lines", () => {
    expect(headerLines("X-Proxy-Token: abc:def\nnot a header\n  Accept : json  ")).toEqual({
      "X-Proxy-Token": "abc:def",
      Accept: "json",
    });
    expect(headerLines(undefined)).toEqual({});
  });
});
