import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { startScriptedServer, type ScriptedServer, type WireReply } from "./scripted-server";

/** One event of a recorded stream: the SSE `event:` name (when the provider sent one) and the `data:` text. */
export interface RecordedEvent {
  event?: string;
  data: string;
}

/**
 * A provider response recorded from the real API, in one of three file shapes:
 * - `*.sse`: the response body exactly as the provider sent it (frames, comments, odd spacing);
 * - `*.jsonl`: one event payload per line, as other projects store their recorded chunks — framed as
 *   SSE on replay, with `event: <type>` for the typed event streams (Anthropic, Responses API),
 *   which is how those providers name their events;
 * - `*.status.json`: an HTTP error response, `{ "status": 400, "body": { ... } }`.
 */
export interface RecordedStream {
  /** The file the recording came from. */
  file: string;
  /** The HTTP status replayed: 200 for a stream. */
  status: number;
  /** The SSE frames replayed, each ending in a blank line (a stream recording only). */
  frames: string[];
  /** The events the frames carry, in order (comments and blank frames left out). */
  events: RecordedEvent[];
  /** The error body (a `*.status.json` recording only). */
  body?: unknown;
}

/** The `type` field of a JSON payload, when it has a string one. */
function payloadType(line: string): string | undefined {
  try {
    const value: unknown = JSON.parse(line);
    if (value && typeof value === "object" && "type" in value && typeof value.type === "string") return value.type;
  } catch {
    return undefined;
  }
  return undefined;
}

/** The events in SSE frames: `event:` and `data:` fields per frame; `:` comments ignored. */
export function sseEvents(frames: string[]): RecordedEvent[] {
  const out: RecordedEvent[] = [];
  for (const frame of frames) {
    let event: string | undefined;
    const data: string[] = [];
    for (const line of frame.split(/\r?\n/)) {
      if (line.startsWith("event:")) event = line.slice(6).trim();
      else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
    }
    if (data.length) out.push(event === undefined ? { data: data.join("\n") } : { event, data: data.join("\n") });
  }
  return out;
}

/** Splits a raw SSE body into frames, each keeping its own bytes (the concatenation is the body). */
function splitFrames(body: string): string[] {
  return body.split(/(?<=\r?\n\r?\n)/).filter((frame) => frame !== "");
}

/** Reads a recording from disk. */
export function readRecordedStream(file: string): RecordedStream {
  const text = readFileSync(file, "utf8");
  if (file.endsWith(".status.json")) {
    const { status, body } = JSON.parse(text) as { status: number; body: unknown };
    return { file, status, frames: [], events: [], body };
  }
  if (file.endsWith(".jsonl")) {
    const lines = text.split("\n").filter((line) => line.trim() !== "");
    const frames = lines.map((line) => {
      const type = payloadType(line);
      return type === undefined ? `data: ${line}\n\n` : `event: ${type}\ndata: ${line}\n\n`;
    });
    return { file, status: 200, frames, events: sseEvents(frames) };
  }
  const frames = splitFrames(text);
  return { file, status: 200, frames, events: sseEvents(frames) };
}

/** The recording as a loopback server's reply: the frames as one clean stream, or the error response. */
export function recordedReply(recording: RecordedStream): WireReply {
  if (recording.status !== 200) return { kind: "json", status: recording.status, body: recording.body };
  return { kind: "sse", frames: recording.frames, ending: "end" };
}

/** The JSON payloads of a recording's events, skipping the `[DONE]` sentinel. */
export function recordedPayloads(recording: RecordedStream): Array<{ event?: string; payload: unknown }> {
  return recording.events
    .filter((event) => event.data.trim() !== "[DONE]" && event.data.trim() !== "")
    .map((event) => ({ event: event.event, payload: JSON.parse(event.data) as unknown }));
}

/** Every recording under `root`, as paths relative to it, sorted (the `sources.json` beside them is not one). */
export function listRecordedStreams(root: string): string[] {
  const entries = readdirSync(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && /\.(sse|jsonl|status\.json)$/.test(entry.name))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))
    .sort();
}

/** A loopback server that answers every request with the recording last loaded by `load`. */
export interface RecordingReplay {
  /** `http://127.0.0.1:<port>`: append the provider's base path yourself. */
  readonly origin: string;
  /** Every request the server received, in order. */
  readonly requests: ScriptedServer["requests"];
  /** Reads `file` (under the replay's root) and serves it to the next request. */
  load(file: string): RecordedStream;
  close(): Promise<void>;
}

/** Starts a {@link RecordingReplay} for the recordings under `root`. */
export async function startRecordingReplay(root: string): Promise<RecordingReplay> {
  let playing: RecordedStream | undefined;
  const server = await startScriptedServer(() =>
    playing
      ? recordedReply(playing)
      : { kind: "json", status: 500, body: { error: { message: "no recording loaded" } } },
  );
  return {
    origin: server.origin,
    requests: server.requests,
    load: (file) => (playing = readRecordedStream(join(root, file))),
    close: () => server.close(),
  };
}
