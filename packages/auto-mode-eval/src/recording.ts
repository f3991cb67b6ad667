import {
  AssistantMessageSchema,
  emptyUsage,
  ModelSchema,
  type AssistantMessage,
  type Brain,
  type BrainEvent,
  type BrainStream,
  type Model,
} from "@x/llm-types";
import { z } from "zod/v4";

export const RECORDING_KIND = "x.auto_mode_eval.recording";

/** Every classifier reply of one evaluated case, in the order the decider asked, and its measured latency. */
export const RecordedCaseSchema = z.strictObject({
  key: z.string().min(1),
  replies: z.array(AssistantMessageSchema),
  wallMs: z.number().int().nonnegative(),
});
export type RecordedCase = z.infer<typeof RecordedCaseSchema>;

/**
 * A run's classifier replies, kept so that its figures can be reproduced offline by anyone: the
 * replay runs the same decider and reader on the same replies, and reports the recorded latencies.
 */
export const RecordingSchema = z.strictObject({
  kind: z.literal(RECORDING_KIND),
  version: z.literal(1),
  /** The classifier model, as the recorded run used it. */
  model: ModelSchema,
  /** The fallback rung's model, when the run had one. */
  main: ModelSchema.optional(),
  /** The classifier prompt the run used: `built-in`, or `sha256:<16 hex>` of a replacement. */
  prompt: z.string().optional(),
  cases: z.array(RecordedCaseSchema),
});
export type Recording = z.infer<typeof RecordingSchema>;

function streamOf(message: AssistantMessage): BrainStream {
  return {
    async *[Symbol.asyncIterator](): AsyncGenerator<BrainEvent> {
      yield { type: "start", partial: { ...message, content: [] } };
      yield message.stopReason === "error" || message.stopReason === "aborted"
        ? { type: "error", message }
        : { type: "done", message };
    },
    result: () => Promise.resolve(message),
  };
}

/** A brain that hands each reply the wrapped brain returns to `keep`, in call order. */
export function recordingBrain(brain: Brain, keep: (reply: AssistantMessage) => void): Brain {
  return {
    ...brain,
    stream(model, context, request) {
      const inner = brain.stream(model, context, request);
      const result = inner.result().then((reply) => {
        keep(reply);
        return reply;
      });
      return { [Symbol.asyncIterator]: () => inner[Symbol.asyncIterator](), result: () => result };
    },
  };
}

/**
 * A brain that answers with recorded replies, in order. A call past the recording is answered with
 * a provider error, so a replay that asks more than the recorded run did shows as `unavailable`.
 */
export function replayBrain(model: Model, replies: readonly AssistantMessage[]): Brain {
  let next = 0;
  return {
    api: model.api,
    stream(asked) {
      const reply = replies[next++];
      if (reply) return streamOf(reply);
      return streamOf({
        role: "assistant",
        content: [],
        api: asked.api,
        provider: asked.provider,
        model: asked.id,
        usage: emptyUsage(),
        stopReason: "error",
        errorKind: "provider",
        errorMessage: "the recording holds no reply for this call",
        timestamp: 0,
      });
    },
  };
}
