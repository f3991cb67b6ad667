import { describe, expect, it } from "vitest";
import { matchingBrace, replyJson, replyJsonObjects } from "./reply-json";

const values = (text: string) => [...replyJson(text)].map((found) => found.value);

describe("replyJson", () => {
  it("yields the whole reply, then fences, then the outermost values among prose, each once", () => {
    expect(values('{"a": 1}')).toEqual([{ a: 1 }]);
    expect(values('Sure:\n```json\n{"a": 1}\n```\nand ```ts\n[2]\n```')).toEqual([{ a: 1 }, [2]]);
    expect(values('first {"a": 1}, then [3, {"b": 2}], then {"a": 1}')).toEqual([{ a: 1 }, [3, { b: 2 }]]);
  });

  it("counts no bracket inside a JSON string, and skips what never closes or is not JSON", () => {
    expect(values('note {x} then {"s": "a } and { b", "t": "\\"}"} {unclosed')).toEqual([
      { s: "a } and { b", t: '"}' },
    ]);
    expect(values("no json here")).toEqual([]);
    expect(values("")).toEqual([]);
  });

  it("never reads a value nested inside one it already read", () => {
    expect(values('{"outer": {"inner": 1}}')).toEqual([{ outer: { inner: 1 } }]);
    expect(values('see [1] and {"list": [{"k": 1}]}')).toEqual([[1], { list: [{ k: 1 }] }]);
  });

  it("keeps the text each value was read from; replyJsonObjects keeps only objects", () => {
    expect([...replyJson("ok: [1, 2] ")].map((found) => found.text)).toEqual(["[1, 2]"]);
    expect([...replyJsonObjects('[1] {"a": 1} "x"')]).toEqual([{ a: 1 }]);
  });
});

describe("matchingBrace", () => {
  it("finds the bracket closing the one at start, or -1", () => {
    expect(matchingBrace('{"a": [1, {"b": "}"}]} tail', 0)).toBe(21);
    expect(matchingBrace("{ [ }", 0)).toBe(-1);
  });
});
