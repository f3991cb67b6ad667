import { join } from "node:path";
import { Readable } from "node:stream";
import { readSse, SseSplitter } from "@x/brain-kit";
import { listRecordedStreams, readRecordedStream } from "@x/brain-kit/testing";
import OpenAI from "openai";
import { Stream } from "openai/streaming";
import { describe, expect, it } from "vitest";
import { sseJson } from "./sse-stream";

const ROOT = join(import.meta.dirname, "../recordings");
const recordings = listRecordedStreams(ROOT)
  .map((file) => readRecordedStream(join(ROOT, file)))
  .filter((r) => r.status === 200);

/** What a reader yields, or the error it ends with, as comparable data. */
async function drain(items: AsyncIterable<unknown>): Promise<{ items: unknown[]; error?: string }> {
  const out: unknown[] = [];
  try {
    for await (const item of items) out.push(item);
    return { items: out };
  } catch (error) {
    return { items: out, error: `${(error as Error).constructor.name}: ${(error as Error).message}` };
  }
}

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

/** The SDK's own reading of these bytes: `Stream.fromSSEResponse`, as `create({ stream: true })` returns it. */
const quiet = new OpenAI({ apiKey: "unused", logLevel: "off" });
const sdkReading = (chunks: Buffer[]) =>
  drain(Stream.fromSSEResponse(new Response(webBody(chunks)), new AbortController(), quiet));

/** Ours, as the brains read it: from a Node stream (the brain's transport) and from a web body (a caller's fetch). */
async function ourReading(body: Readable | ReadableStream<Uint8Array>): Promise<{ items: unknown[]; error?: string }> {
  const items: unknown[] = [];
  const sink = (item: unknown) => (items.push(item), true);
  try {
    await readSse(
      body,
      new SseSplitter(),
      sseJson(sink, () => new Headers()),
    );
    return { items };
  } catch (error) {
    return { items, error: `${(error as Error).constructor.name}: ${(error as Error).message}` };
  }
}

function ourReadings(chunks: Buffer[]) {
  return Promise.all([ourReading(Readable.from(chunks, { objectMode: false })), ourReading(webBody(chunks))]);
}

describe("readSse with sseJson reads a stream exactly as the SDK's Stream does", () => {
  it("the corpus has streams to compare", () => expect(recordings.length).toBeGreaterThan(60));

  it.each(recordings.map((r) => [r.file.slice(ROOT.length + 1), r] as const))(
    "%s, whole, in small pieces (multi-byte characters cut), and with \\r\\n line ends",
    async (_, recording) => {
      const lf = Buffer.from(recording.frames.join(""), "utf8");
      const crlf = Buffer.from(recording.frames.join("").replace(/\n/g, "\r\n"), "utf8");
      // Small pieces cost the SDK's reader quadratic time on the long recordings: 13 and 61 bytes
      // still cut lines, line ends and multi-byte characters everywhere.
      for (const chunks of [[lf], pieces(lf, 13), pieces(crlf, 61)]) {
        const expected = await sdkReading(chunks);
        const [node, web] = await ourReadings(chunks);
        expect(node).toEqual(expected);
        expect(web).toEqual(expected);
      }
    },
  );

  it("an error event throws the SDK's APIError; a malformed event its SyntaxError; [DONE] ends it", async () => {
    for (const text of [
      'data: {"a":1}\n\ndata: {"error":{"message":"overloaded","type":"server_error"}}\n\n',
      'data: {"a":1}\n\ndata: {not json\n\n',
      'data: {"a":1}\n\ndata: [DONE]\n\ndata: {"after":"done"}\n\n',
    ]) {
      const chunks = [Buffer.from(text)];
      const expected = await sdkReading(chunks);
      expect((await ourReadings(chunks))[0]).toEqual(expected);
    }
    expect((await sdkReading([Buffer.from('data: {"error":{"message":"overloaded"}}\n\n')])).error).toBe(
      "APIError: overloaded",
    );
  });
});
