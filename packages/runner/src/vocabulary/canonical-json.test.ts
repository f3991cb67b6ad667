import { describe, expect, it } from "vitest";
import { canonicalJson } from "./canonical-json";

describe("canonicalJson", () => {
  it("sorts keys at every depth and drops undefined values", () => {
    expect(canonicalJson({ b: 1, a: { d: [{ z: 1, y: 2 }], c: undefined } })).toBe('{"a":{"d":[{"y":2,"z":1}]},"b":1}');
  });

  it("keeps an own __proto__ key as data, so it cannot hide from a signature", () => {
    const withKey = JSON.parse('{"path":"/tmp","__proto__":{"recursive":true}}');
    expect(canonicalJson(withKey)).toBe('{"__proto__":{"recursive":true},"path":"/tmp"}');
    expect(canonicalJson(withKey)).not.toBe(canonicalJson({ path: "/tmp" }));
  });
});
