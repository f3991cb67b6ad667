import { z } from "zod/v4";
import { taggedUnion } from "./tagged-union";
import { MessageProvenanceSchema } from "./provenance";
import { UsageSchema } from "./usage";

export const TextContentSchema = z.strictObject({
  type: z.literal("text"),
  text: z.string(),
});
export type TextContent = z.infer<typeof TextContentSchema>;

export const ThinkingContentSchema = z.strictObject({
  type: z.literal("thinking"),
  thinking: z.string(),
  /** Provider signature that must travel back unchanged on the next turn (Anthropic). */
  signature: z.string().optional(),
  /** The provider returned the thinking encrypted/redacted; `thinking` is then opaque. */
  redacted: z.boolean().optional(),
});
export type ThinkingContent = z.infer<typeof ThinkingContentSchema>;

export const ImageContentSchema = z.strictObject({
  type: z.literal("image"),
  /** Base64 data, without a data: prefix. */
  data: z.string(),
  mimeType: z.string().min(1),
});
export type ImageContent = z.infer<typeof ImageContentSchema>;

export const ToolCallSchema = z.strictObject({
  type: z.literal("toolCall"),
  id: z.string().min(1),
  name: z.string().min(1),
  /** Parsed arguments. When the model's JSON did not parse this is `{}` and `rawArguments` is set. */
  arguments: z.record(z.string(), z.unknown()),
  /**
   * The argument text exactly as streamed, kept when it was not valid JSON (or was cut), so the
   * runner can refuse it with a clear error instead of executing `{}`.
   */
  rawArguments: z.string().optional(),
  /** Why `arguments` could not be trusted: the JSON was malformed, or the stream cut it short. */
  argumentsError: z.enum(["malformed_json", "truncated"]).optional(),
});
export type ToolCall = z.infer<typeof ToolCallSchema>;

export const UserMessageSchema = z.strictObject({
  role: z.literal("user"),
  content: z.union([z.string(), z.array(taggedUnion("type", [TextContentSchema, ImageContentSchema]))]),
  timestamp: z.number().optional(),
  /**
   * Who wrote it. Absent means the user (a host's own history); every message the engine writes in
   * the user role says it is the engine's, the teacher's, a recalled strategy's or a compaction's.
   * Never sent to a model: brains read `content` only, so the wire and its prompt cache are unchanged.
   */
  provenance: MessageProvenanceSchema.optional(),
  /**
   * Offsets into a string `content`, increasing: the text before each opens a later request
   * unchanged. A brain whose prompt cache matches only at content-block boundaries (Anthropic's)
   * ends a block at each and marks the last for caching; a cache that matches any token prefix
   * needs nothing, so other brains ignore it. The text sent is the same either way.
   */
  cachePoints: z.array(z.int().positive()).optional(),
});
export type UserMessage = z.infer<typeof UserMessageSchema>;

/** Why a turn stopped. `error`/`aborted` turns carry `errorKind`. */
export const StopReasonSchema = z.enum(["stop", "length", "toolUse", "error", "aborted"]);
export type StopReason = z.infer<typeof StopReasonSchema>;

/**
 * The closed set of typed causes a brain stamps on a turn it did not finish normally. Readers
 * branch on this, never on `errorMessage` prose.
 */
export const ERROR_KINDS = [
  /** Stopped at a static output cap with nothing usable produced. */
  "length_empty",
  /** The brain's repetition guard cut a looping stream; the salvageable prefix is kept. */
  "degenerate_repetition",
  /** The prompt did not fit the model's context window. */
  "context_overflow",
  /** HTTP 429 / quota: retry after `retryAfterMs` when present. */
  "rate_limited",
  /** 503/529 or a provider "overloaded" signal. */
  "overloaded",
  /** The request's deadline (`timeoutMs`) or the stall timer ran out. */
  "timeout",
  /** Connection refused/reset, DNS, TLS: the request never got a provider answer. */
  "network",
  /** 401/403: credentials missing, wrong, or not allowed on this model. */
  "auth",
  /** A 4xx the provider rejected as malformed (other than context overflow). */
  "bad_request",
  /** The provider refused on content grounds. */
  "content_filter",
  /** Any other provider-side failure (5xx, unexpected payload). */
  "provider",
  /** The caller's signal aborted the request. */
  "aborted",
] as const;
export const ErrorKindSchema = z.enum(ERROR_KINDS);
export type ErrorKind = z.infer<typeof ErrorKindSchema>;

export const AssistantContentSchema = taggedUnion("type", [TextContentSchema, ThinkingContentSchema, ToolCallSchema]);
export type AssistantContent = z.infer<typeof AssistantContentSchema>;

export const AssistantMessageSchema = z.strictObject({
  role: z.literal("assistant"),
  content: z.array(AssistantContentSchema),
  api: z.string(),
  provider: z.string(),
  model: z.string(),
  usage: UsageSchema,
  stopReason: StopReasonSchema,
  /**
   * Contract: every turn a brain ends deliberately or by failure carries `errorKind`; readers
   * branch on it and never on `errorMessage`. Also set on a `stop` turn that was cut short
   * (`partialFinalized`) when the cut had a cause (e.g. `timeout` for a stall).
   */
  errorKind: ErrorKindSchema.optional(),
  /** Human-readable detail, provider text kept verbatim (credentials scrubbed). */
  errorMessage: z.string().optional(),
  /** The stream dropped or stalled; what arrived is kept and `stop` was synthesised. */
  partialFinalized: z.boolean().optional(),
  /** Provider's retry hint for `rate_limited`/`overloaded`, in milliseconds. */
  retryAfterMs: z.number().nonnegative().optional(),
  /** Provider response id, when it sent one. */
  responseId: z.string().optional(),
  timestamp: z.number(),
});
export type AssistantMessage = z.infer<typeof AssistantMessageSchema>;

export const ToolResultMessageSchema = z.strictObject({
  role: z.literal("toolResult"),
  toolCallId: z.string().min(1),
  toolName: z.string().min(1),
  content: z.array(taggedUnion("type", [TextContentSchema, ImageContentSchema])),
  isError: z.boolean(),
  /** Structured detail for the host (never sent to the model). */
  details: z.unknown().optional(),
  timestamp: z.number().optional(),
});
export type ToolResultMessage = z.infer<typeof ToolResultMessageSchema>;

export const MessageSchema = taggedUnion("role", [UserMessageSchema, AssistantMessageSchema, ToolResultMessageSchema]);
export type Message = z.infer<typeof MessageSchema>;

/** All text blocks of an assistant turn joined; thinking and tool calls excluded. */
export function assistantText(message: Pick<AssistantMessage, "content">): string {
  return message.content
    .filter((block): block is TextContent => block.type === "text")
    .map((block) => block.text)
    .join("");
}

/** The tool calls of an assistant turn, in order. */
export function assistantToolCalls(message: Pick<AssistantMessage, "content">): ToolCall[] {
  return message.content.filter((block): block is ToolCall => block.type === "toolCall");
}
