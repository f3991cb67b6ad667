import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { AssistantMessage, Brain, Model } from "@x/llm-types";
import {
  listRecordedStreams,
  startRecordingReplay,
  type RecordedStream,
  type RecordingReplay,
} from "./recorded-stream";

/** What a brain's recording test says once: where the recordings are, and how a turn is asked for. */
export interface RecordedTurnsOptions {
  /** The recordings folder, with `sources.json` beside them. */
  root: string;
  /** Only the recordings whose path (relative to `root`) starts with this, e.g. `"chat/"`. */
  prefix?: string;
  /** A new brain under test for each replay (no guard, so a recording reads as it was sent). */
  brain(): Brain;
  /** The model a replay streams from: its `baseUrl` is under `origin`, the replay server's. */
  model(recording: RecordedStream, file: string, origin: string): Model;
}

/** A recording replayed through a brain, and the turn the brain read from it. */
export interface RecordedTurn {
  recording: RecordedStream;
  message: AssistantMessage;
}

export interface RecordedTurns {
  /** The recordings the test covers, relative to the root, sorted. */
  readonly files: string[];
  /** `sources.json`: where each recording came from (repository, commit, licence). */
  readonly sources: Record<string, unknown>;
  /** Serves `file` to the brain's next request and streams one turn from it. */
  replay(file: string): Promise<RecordedTurn>;
  /** Stops the replay server (started on the first replay). */
  close(): Promise<void>;
}

/**
 * The recorded-stream replay every brain's recording test runs: the corpus and its sources, one
 * loopback server for the whole file, and a turn per recording asked for the same way (one user
 * message, a 10 s deadline).
 */
export function recordedTurns(options: RecordedTurnsOptions): RecordedTurns {
  const { root, prefix = "" } = options;
  let server: Promise<RecordingReplay> | undefined;
  return {
    files: listRecordedStreams(root).filter((file) => file.startsWith(prefix)),
    sources: JSON.parse(readFileSync(join(root, "sources.json"), "utf8")) as Record<string, unknown>,
    async replay(file) {
      const replay = await (server ??= startRecordingReplay(root));
      const recording = replay.load(file);
      const model = options.model(recording, file, replay.origin);
      const message = await options
        .brain()
        .stream(model, { messages: [{ role: "user", content: "replay" }] }, { timeoutMs: 10_000 })
        .result();
      return { recording, message };
    },
    async close() {
      await (await server)?.close();
    },
  };
}
