import { MessageSchema } from "@x/llm-types";
import { z } from "zod/v4";
import { RunSpecSchema, RunStateSchema } from "./park-schema";

export const RUN_CHECKPOINT_SEGMENT_KIND = "x.run_checkpoint_segment";
export const RUN_CHECKPOINT_SEGMENT_VERSION = 1;

const hex = z.string().regex(/^[0-9a-f]{64}$/);

/**
 * One link of a run's append-only checkpoint: what a host writes at each checkpoint when it
 * would rather not rewrite the whole run each time (`RunOptions.onCheckpointSegment`). The first
 * link of a run (`seq` 0) holds its spec, history and messages so far; each later one only the
 * messages appended since the link before and the run's counters, and names that link's signature
 * in `prev` — so a segment's size and signing cost do not grow with the run, and a link left out,
 * reordered or changed breaks the chain. `runner.continueRun` takes the links in order.
 */
export const RunCheckpointSegmentSchema = z.strictObject({
  kind: z.literal(RUN_CHECKPOINT_SEGMENT_KIND),
  version: z.literal(RUN_CHECKPOINT_SEGMENT_VERSION),
  /** The run this chain belongs to (`spec.runId`), in every link so links of two runs never join. */
  runId: z.string().min(1),
  /** 0 for the first link; each next link one more. */
  seq: z.number().int().nonnegative(),
  /** The signature of link `seq - 1`; absent on link 0. */
  prev: hex.optional(),
  createdAt: z.number(),
  /** Link 0 only: the run's spec and the history it was given. */
  base: z.strictObject({ spec: RunSpecSchema, history: z.array(MessageSchema) }).optional(),
  /** Messages appended since the link before (on link 0: all of the run's messages so far). */
  messages: z.array(MessageSchema),
  /** The run's counters as of this link (small and bounded: whole, not a delta). */
  state: RunStateSchema,
  /** HMAC-SHA256 over the canonical JSON of everything above, hex. */
  signature: hex,
});
export type RunCheckpointSegment = z.infer<typeof RunCheckpointSegmentSchema>;

/**
 * Called at each checkpoint with its link (`RunOptions.onCheckpointSegment`); the run waits for it.
 * `json` is the link as JSON text, exactly as signed: a host that stores text stores it as is, and
 * does not pay for serialising the link again.
 */
export type CheckpointSegmentSink = (segment: RunCheckpointSegment, json: string) => void | Promise<void>;
