import { describe, expect, it } from "vitest";
import { SseSplitter, type SseEvent } from "./sse-splitter";

/** Every event `text` holds, fed in pieces of `size` characters. */
function split(text: string, size = text.length): SseEvent[] {
  const splitter = new SseSplitter();
  const out: SseEvent[] = [];
  for (let i = 0; i < text.length; i += size) out.push(...splitter.push(text.slice(i, i + size)));
  return out;
}

const STREAM = [
  ": keep-alive comment",
  'data: {"a":1}',
  "",
  "event: response.created",
  'data:{"b":2}',
  "id: 7",
  "retry: 100",
  "",
  "data: line one",
  "data:  two spaces",
  "data",
  "",
  "",
  "event:",
  "",
  "data: [DONE]",
  "",
  "",
];
const EXPECTED: SseEvent[] = [
  { event: null, data: '{"a":1}' },
  { event: "response.created", data: '{"b":2}' },
  { event: null, data: "line one\n two spaces\n" },
  // The empty `event:` before it was no event of its own but is still the name in force (as in the SDKs).
  { event: "", data: "[DONE]" },
];

describe("SseSplitter", () => {
  it.each([
    ["\\n", "\n"],
    ["\\r\\n", "\r\n"],
    ["\\r", "\r"],
  ])("reads lines ending in %s, whole and cut at every size", (_, end) => {
    const text = STREAM.join(end);
    for (const size of [1, 2, 3, 5, 8, 13, text.length])
      expect(split(text, size), `pieces of ${size}`).toEqual(EXPECTED);
  });

  it("a \\r\\n cut between two pieces is one line end, not two", () => {
    const splitter = new SseSplitter();
    expect(splitter.push("data: x\r")).toEqual([]);
    expect(splitter.push("\n\r\n")).toEqual([{ event: null, data: "x" }]);
  });

  it("mixed line ends in one stream", () => {
    expect(split("data: a\r\n\ndata: b\r\rdata: c\n\r\n")).toEqual([
      { event: null, data: "a" },
      { event: null, data: "b" },
      { event: null, data: "c" },
    ]);
  });

  it("an event the stream ends inside is never dispatched", () => {
    expect(split("data: kept\n\ndata: cut off\n")).toEqual([{ event: null, data: "kept" }]);
  });

  it("a name with no data is an event; an empty name with no data is none", () => {
    expect(split("event: ping\n\nevent:\n\n")).toEqual([{ event: "ping", data: "" }]);
  });

  it("a byte-order mark opening a line is dropped only when asked (Anthropic's rule), one per line", () => {
    const text = "\ufeffevent: a\n\ufeffdata: 1\n\ufeff\n\ufeff\ufeffdata: 2\ndata: 3\n\n";
    expect(new SseSplitter({ stripLineBom: true }).push(text)).toEqual([
      { event: "a", data: "1" },
      { event: null, data: "3" },
    ]);
    expect(new SseSplitter().push(text)).toEqual([{ event: null, data: "3" }]);
  });
});
