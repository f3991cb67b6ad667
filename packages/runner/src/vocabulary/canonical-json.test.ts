import { describe, expect, it } from "vitest";
import { canonicalJson, canonicalJsonAsStored } from "./canonical-json";

describe("canonicalJson", () => {
  it("sorts keys at every depth and drops undefined values", () => {
    expect(canonicalJson({ b: 1, a: { d: [{ z: 1, y: 2 }], c: undefined } })).toBe('{"a":{"d":[{"y":2,"z":1}]},"b":1}');
  });

  it("keeps an own __proto__ key as data, so it cannot hide from a signature", () => {
    const withKey = JSON.parse('{"path":"/tmp","__proto__":{"recursive":true}}');
    expect(canonicalJson(withKey)).toBe('{"__proto__":{"recursive":true},"path":"/tmp"}');
    expect(canonicalJson(withKey)).not.toBe(canonicalJson({ path: "/tmp" }));
  });

  // What canonicalJson gave before it took values already in order as they are: the text of a sorted
  // copy. Signatures made then must still verify.
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
  const values = (): unknown[] => [
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
    // Arrays keep their slots: what JSON has no text for is null there.
    { b: [undefined, () => 1, Symbol("s"), , NaN, -0, Infinity], a: 1 }, // eslint-disable-line no-sparse-arrays
    // Array indices come first in any object, by number; other numeric-looking keys are names.
    { b: 1, "4294967295": 1, "4294967294": 2, "01": 3, "-1": 4, "1.5": 5, "0": 6, "20": 7, "3": 8 },
    { z: { toJSON: () => ({ b: 1, a: 2 }) }, a: 1 },
    // A toJSON that hands back a boxed primitive; toJSON on an array, inherited, or not enumerable.
    { b: 1, a: { toJSON: () => new String("abcdefghijk") } },
    { a: { toJSON: () => Object.assign(new Number(3), { z: 1, y: 2 }) } },
    { a: Object.assign([2, 1], { toJSON: () => ({ y: 1, x: 2 }) }) },
    {
      a: new (class extends Array<number> {
        toJSON = () => ({ d: 1, c: 2 });
      })(),
    },
    Object.defineProperty({ a: 1 }, "toJSON", { value: () => ({ y: 1, x: 2 }), enumerable: false }),
    { z: 1, toJSON: "not a method", a: 2 },
    // A function or a BigInt with a toJSON: JSON writes what it returns.
    { b: Object.assign(() => 1, { toJSON: () => ({ z: 1, a: 2 }) }), a: 1 },
    [Object.assign(() => 1, { toJSON: () => ({ y: 1, x: 2 }) })],
    { b: new String("ab"), a: new Number(3), c: new Uint8Array([2, 1]) },
    { b: { d: { f: 1, e: [{ h: 1, g: '\u2028"' }] }, c: true }, a: null },
    [undefined, { b: undefined }, () => 1],
    () => 1,
  ];

  it("a BigInt given a toJSON (as some hosts do): as stored, what it returns with its keys sorted", () => {
    const proto = BigInt.prototype as { toJSON?: () => unknown };
    proto.toJSON = () => ({ z: 1, a: 2 });
    try {
      const value = { b: 1n, a: [2n] };
      expect(canonicalJsonAsStored(value)).toBe('{"a":[{"a":2,"z":1}],"b":{"a":2,"z":1}}');
      expect(canonicalJson(value)).toBe(JSON.stringify(sorted(value)));
    } finally {
      delete proto.toJSON;
    }
  });

  it("gives the text of sorted copies whether or not the keys were already in order", () => {
    for (const value of values()) expect(canonicalJson(value)).toBe(JSON.stringify(sorted(value)) ?? "null");
  });

  const generator = () => {
    let seed = 1;
    const next = (n: number) => (seed = (seed * 48_271) % 2_147_483_647) % n;
    const keys = ["a", "b", "z", "aa", "0", "7", "10", "01", "__proto__", "toJSON", "é", "A", ""];
    const leaf = () => [1, -0.5, "x", "\n", true, null, undefined, NaN, () => 0][next(9)];
    const generated = (depth: number): unknown => {
      if (depth === 0 || next(3) === 0) return leaf();
      if (next(2) === 0) return Array.from({ length: next(4) }, () => generated(depth - 1));
      const value: Record<string, unknown> = next(4) === 0 ? (Object.create(null) as Record<string, unknown>) : {};
      for (let i = next(6); i > 0; i--) {
        const key = keys[next(keys.length)]!;
        // A toJSON method is the one value the sorted copy's text depends on calling.
        const v = key === "toJSON" && next(2) === 0 ? () => ({ y: 1, x: 2 }) : generated(depth - 1);
        Object.defineProperty(value, key, { value: v, enumerable: true, configurable: true, writable: true });
      }
      return value;
    };
    return generated;
  };

  it("gives the text of sorted copies for generated values of every kind", () => {
    const generated = generator();
    for (let i = 0; i < 3_000; i++) {
      const value = generated(4);
      expect(canonicalJson(value)).toBe(JSON.stringify(sorted(value)) ?? "null");
    }
  });

  // A chain link is signed over this text and verified on the copy a host reads back.
  const asStored = (value: unknown) => canonicalJson(JSON.parse(JSON.stringify(value)));

  it("canonicalJsonAsStored gives the canonical text of the value a host reads back, for values of every kind", () => {
    const generated = generator();
    const kinds = [
      ...values(),
      { b: date, a: [new Map(), new Set([1])], c: { toJSON: () => ({ z: date, y: 1 }) } },
      { b: [new String("abcdefghijkl"), new Uint8Array(12), Object.assign(new Boolean(false), { x: 1 })], a: 1 },
      {
        z: new (class Record {
          b = 1;
          a = 2;
        })(),
        a: { b: Object.create({ inherited: 1 }) as object },
      },
      ...Array.from({ length: 3_000 }, () => generated(4)),
    ];
    for (const value of kinds) {
      if (JSON.stringify(value) === undefined) continue;
      expect(canonicalJsonAsStored(value)).toBe(asStored(value));
    }
  });
});
