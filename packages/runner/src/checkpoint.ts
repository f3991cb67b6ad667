import { describeIssues, MessageSchema, type Message, issuesLine } from "@x/llm-types";
import { z } from "zod";
import { canonicalJson } from "./canonical-json";
import { mac, outsideJson } from "./park";
import { ParkedRunError } from "./parked-run-error";
import { refuseNewerVersion } from "./stored-version";
import { RunSpecSchema, RunStateSchema, type RunSpec, type RunState } from "./park-schema";
import type { RunContext } from "./run-context";
import { timingSafeEqual } from "node:crypto";

export const RUN_CHECKPOINT_KIND = "x.run_checkpoint";
export const RUN_CHECKPOINT_VERSION = 1;

/**
 * A run between two turns, as plain JSON: what a host makes durable after every finished turn so a
 * run whose process died continues from there (`runner.continueRun`) instead of starting again. It
 * is signed with the park key, like a park, so a tampered copy from storage is refused.
 */
export const RunCheckpointSchema = z.strictObject({
  kind: z.literal(RUN_CHECKPOINT_KIND),
  version: z.literal(RUN_CHECKPOINT_VERSION),
  createdAt: z.number(),
  spec: RunSpecSchema,
  history: z.array(MessageSchema),
  /** New messages of the run so far, the objective first; the last turn's tool results all in. */
  messages: z.array(MessageSchema).min(1),
  state: RunStateSchema,
  /** HMAC-SHA256 over the canonical JSON of everything above, hex. */
  signature: z.string().regex(/^[0-9a-f]{64}$/),
});
export type RunCheckpoint = z.infer<typeof RunCheckpointSchema>;

/** Called after every finished turn, before the next model call; the run waits for it. */
export type CheckpointSink = (checkpoint: RunCheckpoint) => void | Promise<void>;

interface CheckpointInput {
  now: number;
  spec: RunSpec;
  /** Read only: the signed checkpoint holds a JSON copy. */
  history: readonly Message[];
  messages: Message[];
  state: RunState;
}

export function signCheckpoint(input: CheckpointInput, key: Uint8Array | string): RunCheckpoint {
  const unsigned = { kind: RUN_CHECKPOINT_KIND, version: RUN_CHECKPOINT_VERSION, createdAt: input.now, ...input };
  delete (unsigned as { now?: number }).now;
  // The JSON round trip makes the signed value exactly what the host stores and hands back.
  const plain = JSON.parse(JSON.stringify(unsigned)) as Omit<RunCheckpoint, "signature">;
  return { ...plain, signature: mac(key, canonicalJson(plain)) };
}

/** Reads a checkpoint handed back by a host: schema, then signature. Throws {@link ParkedRunError}. */
export function verifyCheckpoint(raw: unknown, key: Uint8Array | string): RunCheckpoint {
  const value = outsideJson(raw, "run checkpoint");
  refuseNewerVersion(value, "this run checkpoint", RUN_CHECKPOINT_VERSION);
  const parsed = RunCheckpointSchema.safeParse(value);
  if (!parsed.success) {
    throw new ParkedRunError(
      "invalid_schema",
      `run checkpoint does not match schema v${RUN_CHECKPOINT_VERSION}: ${issuesLine(parsed.error)}`,
      { issues: describeIssues(parsed.error) },
    );
  }
  const { signature, ...unsigned } = parsed.data;
  const expected = Buffer.from(mac(key, canonicalJson(unsigned)), "hex");
  if (!timingSafeEqual(expected, Buffer.from(signature, "hex"))) {
    throw new ParkedRunError(
      "bad_signature",
      "run checkpoint signature does not match: it was altered or signed with another key",
    );
  }
  return parsed.data;
}

/**
 * Hands the host a checkpoint when messages were appended since the last one (or since the run
 * began or resumed): at the loop's top, every tool result of the finished turn is in.
 */
export async function checkpointIfDue(ctx: RunContext): Promise<void> {
  if (!ctx.onCheckpoint || ctx.messages.length <= ctx.checkpointedMessages) return;
  ctx.checkpointedMessages = ctx.messages.length;
  await ctx.onCheckpoint(
    signCheckpoint(
      {
        now: ctx.deps.clock.now(),
        spec: ctx.spec,
        history: ctx.history,
        messages: ctx.messages,
        state: structuredClone(ctx.state),
      },
      ctx.deps.parkKey,
    ),
  );
}
