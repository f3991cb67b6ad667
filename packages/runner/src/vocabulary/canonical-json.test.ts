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

  it("gives the text of sorted copies whether or not the keys were already in order", () => {
    // What canonicalJson gave before it took values already in order as they are.
    const sorted = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(sorted);
      if (!value || typeof value !== "object") return value;
      const out = Object.create(null) as Record<string, unknown>;
      for (const key of Object.keys(value).sort()) {
        const v = (value as Record<string, unknown>)[key];
        if (v !== undefined) out[key] = sorted(v);
      }
      return out;
    };
    const date = new Date(0);
    for (const value of [
      { a: 1, b: [1, { c: 2, d: null }], e: "x" },
      { b: 1, a: 2 },
      { "9": 1, "10": 2, a: 3 },
      { a: undefined, b: () => 1, c: 1 },
      { a: date, b: new Map([[1, 2]]) },
      { a: { toJSON: () => "z" } },
      Object.assign(Object.create(null) as object, { a: 1, b: 2 }),
      JSON.parse('{"__proto__":{"x":1},"a":1}') as unknown,
      [3, [2, { z: 1, a: 2 }]],
      "text",
      42,
      null,
      undefined,
    ]) {
      expect(canonicalJson(value)).toBe(JSON.stringify(sorted(value)) ?? "null");
    }
  });
});
