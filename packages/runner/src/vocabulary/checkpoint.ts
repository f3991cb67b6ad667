import { MessageSchema } from "@x/llm-types";
import { z } from "zod/v4";
import { RunSpecSchema, RunStateSchema } from "./park-schema";

export const RUN_CHECKPOINT_KIND = "x.run_checkpoint";
export const RUN_CHECKPOINT_VERSION = 1;

/**
 * A run between two turns, as plain JSON: what a host makes durable as the run goes (when an answer
 * is accepted, and once its calls' results are in) so a run whose process died continues from there
 * (`runner.continueRun`) instead of starting again. It is signed with the park key, like a park, so
 * a tampered copy from storage is refused.
 */
export const RunCheckpointSchema = z.strictObject({
  kind: z.literal(RUN_CHECKPOINT_KIND),
  version: z.literal(RUN_CHECKPOINT_VERSION),
  createdAt: z.number(),
  spec: RunSpecSchema,
  history: z.array(MessageSchema),
  /** New messages of the run so far, the objective first. */
  messages: z.array(MessageSchema).min(1),
  state: RunStateSchema,
  /** HMAC-SHA256 over the canonical JSON of everything above, hex. */
  signature: z.string().regex(/^[0-9a-f]{64}$/),
});
export type RunCheckpoint = z.infer<typeof RunCheckpointSchema>;

/** Called at each checkpoint (`RunOptions.onCheckpoint`); the run waits for it. */
export type CheckpointSink = (checkpoint: RunCheckpoint) => void | Promise<void>;
