import { describe, expect, it } from "vitest";
import { REDACTED, SecretSet } from "./redact";

describe("SecretSet", () => {
  it("replaces every known secret and any bearer or basic credential, leaves short words alone", () => {
    const secrets = new SecretSet();
    secrets.add("a1b2c3d4e5f6", undefined, "short");
    const text = "token a1b2c3d4e5f6 sent as Authorization: Bearer zzz.yyy-xxx and Basic dXNlcjpwYXNz; short stays";
    expect(secrets.redact(text)).toBe(
      `token ${REDACTED} sent as Authorization: Bearer ${REDACTED} and Basic ${REDACTED}; short stays`,
    );
  });
});
