import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { readSse } from "./sse-reader";
import { SseSplitter } from "./sse-splitter";

const TEXT = "data: one\n\ndata: two\n\ndata: three\n\n";

/** A Node body of `pieces`, and how much of it was read. */
function nodeBody(pieces: string[]) {
  let read = 0;
  const body = new Readable({
    read() {
      const piece = pieces.shift();
      if (piece === undefined) {
        this.push(null);
        return;
      }
      read++;
      this.push(Buffer.from(piece));
    },
  });
  return { body, read: () => read };
}

function webBody(pieces: string[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const piece of pieces) controller.enqueue(new TextEncoder().encode(piece));
      controller.close();
    },
  });
}

describe("readSse", () => {
  it("hands every event over in order, from a Node body and from a web body, pieces cut anywhere", async () => {
    const pieces = ["data: o", "ne\n", "\ndata: two\n\nda", "ta: three\n\n"];
    for (const body of [nodeBody([...pieces]).body, webBody([...pieces])]) {
      const seen: string[] = [];
      await readSse(body, new SseSplitter(), (event) => (seen.push(event.data), true));
      expect(seen).toEqual(["one", "two", "three"]);
    }
  });

  it("a handler that takes no more still reads the body to its end, so a kept-alive socket is reused", async () => {
    const source = nodeBody(["data: one\n\n", "data: two\n\n", "data: three\n\n", ": trailing\n\n"]);
    const seen: string[] = [];
    await readSse(source.body, new SseSplitter(), (event) => (seen.push(event.data), false));
    expect(seen).toEqual(["one"]);
    expect(source.read()).toBe(4);
    expect(source.body.readableEnded).toBe(true);
  });

  it("what the handler throws ends the read with that error and destroys the body", async () => {
    const source = nodeBody([TEXT, TEXT, TEXT]);
    const boom = new SyntaxError("bad event");
    await expect(
      readSse(source.body, new SseSplitter(), () => {
        throw boom;
      }),
    ).rejects.toBe(boom);
    expect(source.body.destroyed).toBe(true);
    await expect(
      readSse(webBody([TEXT]), new SseSplitter(), () => {
        throw boom;
      }),
    ).rejects.toBe(boom);
  });

  it("a body cut mid-way rejects with what cut it, after the events that arrived whole", async () => {
    const reset = Object.assign(new Error("aborted"), { code: "ECONNRESET" });
    const body = new Readable({ read() {} });
    const seen: string[] = [];
    const reading = readSse(body, new SseSplitter(), (event) => (seen.push(event.data), true));
    body.push(Buffer.from("data: one\n\ndata: tw"));
    setImmediate(() => body.destroy(reset));
    await expect(reading).rejects.toBe(reset);
    expect(seen).toEqual(["one"]);
  });
});
