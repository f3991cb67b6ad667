import { join } from "node:path";
import { Readable } from "node:stream";
import type { NodeFetch } from "@x/brain-kit";
import { listRecordedStreams, readRecordedStream } from "@x/brain-kit/testing";
import Anthropic, { APIError } from "@anthropic-ai/sdk";
import { Stream } from "@anthropic-ai/sdk/core/streaming";
import { describe, expect, it } from "vitest";
import { readSdkStream } from "./sse-stream";

const ROOT = join(import.meta.dirname, "../recordings");
const recordings = listRecordedStreams(ROOT)
  .map((file) => readRecordedStream(join(ROOT, file)))
  .filter((r) => r.status === 200);

/** What a reader yields, or the error it ends with (an APIError's type and body too), as comparable data. */
async function drain(read: (sink: (item: unknown) => boolean) => Promise<void>) {
  const out: unknown[] = [];
  try {
    await read((item) => (out.push(item), true));
    return { items: out };
  } catch (error) {
    const { name, message } = error as Error;
    const api = error instanceof APIError ? { type: error.type, body: error.error, status: error.status } : {};
    return { items: out, error: { class: (error as Error).constructor.name, name, message, ...api } };
  }
}

const iterate = (items: AsyncIterable<unknown>) => async (sink: (item: unknown) => boolean) => {
  for await (const item of items) sink(item);
};

const pieces = (bytes: Buffer, size: number) =>
  Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => bytes.subarray(i * size, (i + 1) * size));

function webBody(chunks: Buffer[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(new Uint8Array(chunk));
      controller.close();
    },
  });
}

/** The SDK's own reading of these bytes: `Stream.fromSSEResponse`, as `messages.create({ stream: true })` gives it. */
const quiet = new Anthropic({ apiKey: "unused", logLevel: "off" });
const sdkReading = (chunks: Buffer[]) =>
  drain(iterate(Stream.fromSSEResponse(new Response(webBody(chunks)), new AbortController(), quiet)));

/** Ours, from a Node stream (the brain's node fetch) and from a web body (a caller's fetch). */
function ourReadings(chunks: Buffer[]) {
  const transport = (body: () => Readable | undefined): NodeFetch => ({
    fetch: globalThis.fetch,
    body,
    request: () => Promise.reject(new Error("not used")),
  });
  const nodeBody = () => Readable.from(chunks, { objectMode: false });
  return Promise.all([
    drain((sink) => readSdkStream(new Response(null, { status: 200 }), transport(nodeBody), sink)),
    drain((sink) =>
      readSdkStream(
        new Response(webBody(chunks)),
        transport(() => undefined),
        sink,
      ),
    ),
  ]);
}

async function expectSameReading(chunks: Buffer[]) {
  const expected = await sdkReading(chunks);
  const [node, web] = await ourReadings(chunks);
  expect(node).toEqual(expected);
  expect(web).toEqual(expected);
  return expected;
}

describe("readSdkStream reads a stream exactly as the SDK's Stream does", () => {
  it("the corpus has streams to compare", () => expect(recordings.length).toBeGreaterThanOrEqual(25));

  it.each(recordings.map((r) => [r.file.slice(ROOT.length + 1), r] as const))(
    "%s, whole, in small pieces (multi-byte characters cut), and with \\r\\n line ends",
    async (_, recording) => {
      const lf = Buffer.from(recording.frames.join(""), "utf8");
      const crlf = Buffer.from(recording.frames.join("").replace(/\n/g, "\r\n"), "utf8");
      // Small pieces cost the SDK's reader quadratic time on the long recordings: 7 and 13 bytes
      // still cut lines, `\r\n` pairs and multi-byte characters everywhere.
      for (const chunks of [[lf], pieces(lf, 7), [crlf], pieces(crlf, 13)]) {
        const reading = await expectSameReading(chunks);
        expect(reading.items.length + (reading.error ? 1 : 0)).toBeGreaterThan(0);
      }
    },
  );

  it("ping and unnamed events are skipped; an error event mid-stream throws the SDK's typed APIError", async () => {
    const start = 'event: message_start\ndata: {"type":"message_start"}\n\n';
    const overloaded = '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}';
    const reading = await expectSameReading([
      Buffer.from(
        `${start}event: ping\ndata: {"type": "ping"}\n\ndata: {"unnamed":1}\n\nevent: error\ndata: ${overloaded}\n\n`,
      ),
    ]);
    expect(reading).toMatchObject({
      items: [{ type: "message_start" }],
      error: { class: "APIError", type: "overloaded_error", message: expect.stringContaining('"Overloaded"') },
    });
    for (const text of [
      `${start}event: error\ndata: upstream gone\n\n`,
      `${start}event: error\ndata: null\n\n`,
      `${start}event: content_block_delta\ndata: {not json\n\n`,
      `${start}event: message_delta\n\nevent:\ndata: {"named":"empty"}\n\n`,
      `\ufeffevent: message_start\ndata: {"bom":1}\n\n\ufeff\ufeffevent: x\ndata: {"bom":2}\n\n`,
      `${start}event: message_stop\ndata: {"type":"message_stop"}\n\r\r`,
      `${start}event: message_stop\ndata: {"type":"cut off"}\n`,
    ])
      await expectSameReading([Buffer.from(text)]);
  });
});
