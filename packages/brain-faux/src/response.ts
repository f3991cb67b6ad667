import type { Context, ErrorKind, Model, BrainRequest } from "@x/llm-types";
import type { UsageCounts } from "@x/brain-kit";

/** One block of a scripted reply, streamed in small chunks; each is its own content block (two of a kind stay two). */
export type FauxBlock =
  | {
      type: "text";
      text: string;
      /** Stream the text this many times; `Infinity` loops until the guard or the output cap cuts it. */
      repeat?: number;
      /** Streamed once, in the same block, before `text` (and its repeats). */
      prefix?: string;
    }
  | { type: "thinking"; thinking: string; signature?: string }
  | {
      type: "toolCall";
      name: string;
      /** Streamed as JSON. Ignored when `rawArguments` is given. */
      arguments?: Record<string, unknown>;
      /** The exact argument text to stream (malformed or partial JSON for tests). */
      rawArguments?: string;
      /** Default `faux_call_<callIndex>_<n>`. */
      id?: string;
    };

/** How a scripted reply ends once its blocks are streamed. */
export type FauxEnding =
  | { type: "stop" }
  | { type: "toolUse" }
  /** The provider stopped at the cap: a partial tool call becomes `truncated`, an empty reply `length_empty`. */
  | { type: "length" }
  | { type: "error"; errorKind: ErrorKind; errorMessage?: string; retryAfterMs?: number }
  /** The stream goes silent; after the stall timeout the turn ends `partialFinalized` (`timeout`). */
  | { type: "stall" }
  /** The connection drops; the turn ends `partialFinalized` (`network`). */
  | { type: "drop" };

/** One scripted reply. */
export interface FauxResponse {
  content?: FauxBlock[];
  /** Default: `toolUse` when a tool call is in `content`, else `stop`. */
  end?: FauxEnding;
  /** Wait this long before the first byte (abort and timeout still apply). */
  delayMs?: number;
  /** Provider-reported token counts; whatever is missing is estimated (chars/4). */
  usage?: UsageCounts;
  responseId?: string;
}

/** What a scripted function sees of the call it answers. */
export interface FauxRequestContext {
  model: Model;
  context: Context;
  request: BrainRequest;
  /** 0 for the brain's first call, counting every call. */
  callIndex: number;
}

/** A reply computed from the request. May be async; a throw becomes a `provider` error turn. */
export type FauxResponder = (ctx: FauxRequestContext) => FauxResponse | Promise<FauxResponse>;

export type FauxScriptItem = FauxResponse | FauxResponder;

type Extra = Omit<FauxResponse, "content">;

/** A plain text reply. */
export function fauxText(text: string, extra: Extra = {}): FauxResponse {
  return { content: [{ type: "text", text }], ...extra };
}

/** Thinking, then (optionally) text. */
export function fauxThinking(
  thinking: string,
  text?: string,
  options: Extra & { signature?: string } = {},
): FauxResponse {
  const { signature, ...extra } = options;
  const content: FauxBlock[] = [
    signature === undefined ? { type: "thinking", thinking } : { type: "thinking", thinking, signature },
  ];
  if (text !== undefined) content.push({ type: "text", text });
  return { content, ...extra };
}

/** A reply that calls one tool (optionally after some text). Ends `toolUse`. */
export function fauxToolCall(
  name: string,
  args: Record<string, unknown> = {},
  options: Extra & { id?: string; text?: string } = {},
): FauxResponse {
  const { id, text, ...extra } = options;
  const content: FauxBlock[] = text === undefined ? [] : [{ type: "text", text }];
  content.push(
    id === undefined ? { type: "toolCall", name, arguments: args } : { type: "toolCall", name, arguments: args, id },
  );
  return { content, ...extra };
}

/** A tool call whose argument text is streamed verbatim (e.g. malformed JSON). */
export function fauxRawToolCall(name: string, rawArguments: string, extra: Extra = {}): FauxResponse {
  return { content: [{ type: "toolCall", name, rawArguments }], ...extra };
}

/** A failed call of any kind; `partialText` streams first (a failure mid-stream). */
export function fauxError(
  errorKind: ErrorKind,
  errorMessage?: string,
  options: { retryAfterMs?: number; partialText?: string; delayMs?: number } = {},
): FauxResponse {
  const end: FauxEnding = { type: "error", errorKind };
  if (errorMessage !== undefined) end.errorMessage = errorMessage;
  if (options.retryAfterMs !== undefined) end.retryAfterMs = options.retryAfterMs;
  const response: FauxResponse = {
    content: options.partialText ? [{ type: "text", text: options.partialText }] : [],
    end,
  };
  if (options.delayMs !== undefined) response.delayMs = options.delayMs;
  return response;
}

/** Stopped at the provider's cap: some text, and optionally a tool call whose JSON was cut. */
export function fauxLengthCut(
  text: string,
  options: { partialToolCall?: { name: string; rawArguments: string } } = {},
): FauxResponse {
  const content: FauxBlock[] = text ? [{ type: "text", text }] : [];
  if (options.partialToolCall) content.push({ type: "toolCall", ...options.partialToolCall });
  return { content, end: { type: "length" } };
}

/** Nothing produced before the cap: the turn ends `error`/`length_empty`. */
export function fauxEmptyAtCap(): FauxResponse {
  return { content: [], end: { type: "length" } };
}

/** A degenerate loop: `prefix`, then `unit` forever, until the repetition guard (or the cap) cuts it. */
export function fauxLoop(unit: string, options: { prefix?: string } = {}): FauxResponse {
  const block: FauxBlock = { type: "text", text: unit, repeat: Infinity };
  if (options.prefix) block.prefix = options.prefix;
  return { content: [block], end: { type: "stop" } };
}

/** Streams `partialText` (and an optional partial tool call), then goes silent until the stall timeout. */
export function fauxStall(
  partialText: string,
  options: { partialToolCall?: { name: string; rawArguments: string } } = {},
): FauxResponse {
  const content: FauxBlock[] = partialText ? [{ type: "text", text: partialText }] : [];
  if (options.partialToolCall) content.push({ type: "toolCall", ...options.partialToolCall });
  return { content, end: { type: "stall" } };
}

/** Streams `partialText`, then the connection drops. */
export function fauxDrop(partialText: string): FauxResponse {
  return { content: partialText ? [{ type: "text", text: partialText }] : [], end: { type: "drop" } };
}

/** The same reply, after `ms` of silence before the first byte. */
export function fauxDelay(ms: number, response: FauxResponse): FauxResponse {
  return { ...response, delayMs: ms };
}
