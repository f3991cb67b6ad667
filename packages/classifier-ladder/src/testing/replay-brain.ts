import {
  EventStream,
  emptyUsage,
  type AssistantContent,
  type AssistantMessage,
  type Brain,
  type ErrorKind,
  type Model,
  type StopReason,
} from "@x/llm-types";

/** One classifier reply as a brain reports it: its visible text, reasoning, and how it ended. */
export interface ReplyShape {
  text?: string;
  /** A thinking block (provider-side reasoning), before the text. */
  thinking?: string;
  stopReason: StopReason;
  errorKind?: ErrorKind;
  /** The stream dropped or stalled and `stop` was synthesised. */
  partialFinalized?: boolean;
  /** The reply also called a tool (the classifier is offered none). */
  toolCall?: boolean;
}

/** The final message a brain would return for this reply, on `model`. */
export function replyMessage(
  shape: ReplyShape,
  model: Pick<Model, "provider" | "id"> & { api: string },
): AssistantMessage {
  const content: AssistantContent[] = [];
  if (shape.thinking !== undefined) content.push({ type: "thinking", thinking: shape.thinking });
  if (shape.text !== undefined && shape.text !== "") content.push({ type: "text", text: shape.text });
  if (shape.toolCall) content.push({ type: "toolCall", id: "call_cls", name: "approve_action", arguments: {} });
  return {
    role: "assistant",
    content,
    api: model.api,
    provider: model.provider,
    model: model.id,
    usage: emptyUsage(),
    stopReason: shape.stopReason,
    ...(shape.errorKind ? { errorKind: shape.errorKind } : {}),
    ...(shape.stopReason === "error" || shape.stopReason === "aborted" ? { errorMessage: "replayed failure" } : {}),
    ...(shape.partialFinalized ? { partialFinalized: true } : {}),
    timestamp: 0,
  };
}

/** A brain that answers every call with the same reply, streamed as events, and counts its calls. */
export interface ReplayBrain extends Brain {
  readonly calls: number;
}

/**
 * A brain for one `api` that replays `shape` on every call: the reply's blocks as start/delta/end
 * events, then `done` (or `error` for a failed stop), so a consumer reads it the way it reads a
 * provider's stream. Used to run a reply corpus through a decider or a whole runner.
 */
export function replayBrain(api: string, shape: ReplyShape): ReplayBrain {
  let calls = 0;
  return {
    api,
    get calls() {
      return calls;
    },
    stream(model) {
      calls++;
      const message = replyMessage(shape, { ...model, api });
      const stream = new EventStream();
      stream.push({ type: "start", partial: { ...message, content: [] } });
      message.content.forEach((block, contentIndex) => {
        if (block.type === "text") {
          stream.push({ type: "text_start", contentIndex });
          stream.push({ type: "text_delta", contentIndex, delta: block.text });
          stream.push({ type: "text_end", contentIndex, text: block.text });
        } else if (block.type === "thinking") {
          stream.push({ type: "thinking_start", contentIndex });
          stream.push({ type: "thinking_delta", contentIndex, delta: block.thinking });
          stream.push({ type: "thinking_end", contentIndex, thinking: block.thinking });
        } else if (block.type === "toolCall") {
          stream.push({ type: "toolcall_start", contentIndex, id: block.id, name: block.name });
          stream.push({ type: "toolcall_end", contentIndex, toolCall: block });
        }
      });
      const failed = message.stopReason === "error" || message.stopReason === "aborted";
      stream.push(failed ? { type: "error", message } : { type: "done", message });
      return stream;
    },
  };
}
