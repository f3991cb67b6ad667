import {
  defineModel,
  emptyUsage,
  type AssistantContent,
  type AssistantMessage,
  type ErrorKind,
  type Model,
  type ModelInput,
  type StopReason,
} from "@x/llm-types";

export function model(id: string, over: Partial<ModelInput> = {}): Model {
  return defineModel({
    id,
    api: "faux",
    provider: "faux",
    baseUrl: "http://127.0.0.1:9/v1",
    contextWindow: 128_000,
    maxTokens: 8_192,
    ...over,
  });
}

export interface ReplyShape {
  text?: string | string[];
  thinking?: string;
  toolCall?: boolean;
  stopReason?: StopReason;
  errorKind?: ErrorKind;
  errorMessage?: string;
  partialFinalized?: boolean;
}

/** An assistant turn shaped like a brain's final message. */
export function reply(shape: ReplyShape = {}): AssistantMessage {
  const content: AssistantContent[] = [];
  if (shape.thinking !== undefined) content.push({ type: "thinking", thinking: shape.thinking });
  const texts = shape.text === undefined ? [] : Array.isArray(shape.text) ? shape.text : [shape.text];
  for (const text of texts) content.push({ type: "text", text });
  if (shape.toolCall) content.push({ type: "toolCall", id: "call_x", name: "approve", arguments: {} });
  const message: AssistantMessage = {
    role: "assistant",
    content,
    api: "faux",
    provider: "faux",
    model: "m",
    usage: emptyUsage(),
    stopReason: shape.stopReason ?? "stop",
    timestamp: 0,
  };
  if (shape.errorKind) message.errorKind = shape.errorKind;
  if (shape.errorMessage) message.errorMessage = shape.errorMessage;
  if (shape.partialFinalized) message.partialFinalized = true;
  return message;
}
