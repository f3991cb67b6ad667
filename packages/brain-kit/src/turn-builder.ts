import {
  emptyUsage,
  usageFor,
  withoutUndefined,
  type AssistantMessage,
  type BrainEvent,
  type Context,
  type ErrorKind,
  type Model,
  type TextContent,
  type ThinkingContent,
  type ToolCall,
} from "@x/llm-types";
import { markBuiltTurn } from "./built-turn";
import { copyToolCall, parseArguments, settleToolCall } from "./tool-call-arguments";
import { estimateContextTokens, estimateOutputTokens } from "./estimate";
import { redactSecrets } from "./redact";
import { repetitionGuardMaker, type RepetitionGuard, type RepetitionGuardOptions } from "./repetition-guard";

/** Where the builder pushes events: an `EventStream` from `@x/llm-types`, or anything with `push`. */
export interface BrainEventSink {
  push(event: BrainEvent): void;
}

export interface TurnBuilderOptions {
  model: Model;
  stream: BrainEventSink;
  /**
   * Repetition guard on text and thinking deltas (one guard each). `false` turns it off. Default: on, default options.
   */
  guard?: RepetitionGuardOptions | false;
  /** The output cap of this call, quoted when an empty turn hits it. Default: the model's. */
  maxTokens?: number;
  /** The request's context, to estimate input tokens when the provider reports none. */
  context?: Context;
  /** Credentials to scrub from every error message (the brain's API key, ...). */
  secrets?: ReadonlyArray<string | undefined>;
  /** Clock for `timestamp`. Default `Date.now`. */
  now?: () => number;
}

/** Token counts as a provider reports them; any may be missing (the builder estimates those). */
export interface UsageCounts {
  input?: number;
  output?: number;
  cacheRead?: number;
  cacheWrite?: number;
  reasoning?: number;
}

/**
 * What a feed call did: `ok` — taken; `cut` — the repetition guard cut the turn with this delta
 * (the turn is ended: abort the HTTP request); `ended` — ignored, the turn had already ended.
 */
export type FeedResult = "ok" | "cut" | "ended";

type OpenBlock =
  | { kind: "text"; block: TextContent; index: number }
  | { kind: "thinking"; block: ThinkingContent; index: number }
  | { kind: "tool"; block: ToolCall; index: number; raw: string };

/**
 * Assembles one `AssistantMessage` from provider deltas while pushing `BrainEvent`s, so that every
 * brain cuts, closes and classifies a turn the same way. Feed it deltas, then call exactly one
 * ender: `finish`, `fail`, `abort` or `cutShort`. Each ender pushes exactly one `done` or `error`
 * event and returns the final message; anything after the first ender is ignored.
 */
export class TurnBuilder {
  private readonly model: Model;
  private readonly sink: BrainEventSink;
  private readonly options: TurnBuilderOptions;
  private readonly msg: AssistantMessage;
  // Made on the first delta of their kind: each holds typed arrays, and most turns (tool calls)
  // never stream text or thinking at all.
  private textGuard: RepetitionGuard | undefined;
  private thinkingGuard: RepetitionGuard | undefined;
  private readonly newGuard: () => RepetitionGuard | undefined;
  private counts: UsageCounts = {};
  private open: OpenBlock | undefined;
  private started = false;
  private ended = false;
  private cut = false;

  constructor(options: TurnBuilderOptions) {
    this.options = options;
    this.model = options.model;
    this.sink = options.stream;
    this.msg = {
      role: "assistant",
      content: [],
      api: options.model.api,
      provider: options.model.provider,
      model: options.model.id,
      usage: emptyUsage(),
      stopReason: "stop",
      timestamp: (options.now ?? Date.now)(),
    };
    // Options are read (and bad ones throw) here, as when the guards were made up front.
    this.newGuard = options.guard === false ? () => undefined : repetitionGuardMaker(options.guard);
  }

  /** The turn as built so far; the final message once ended. */
  get message(): AssistantMessage {
    return this.msg;
  }

  get isEnded(): boolean {
    return this.ended;
  }

  /** True when the repetition guard ended the turn. */
  get isCut(): boolean {
    return this.cut;
  }

  /** Pushes `start`. Called implicitly by the first delta or ender; calling it twice is harmless. */
  start(): this {
    if (!this.started && !this.ended) {
      this.started = true;
      // A copy, so a consumer that edits the event cannot reach the message being built. Every
      // feeder calls start() before it adds a block, so there is no content to copy yet.
      const msg = this.msg;
      this.sink.push({
        type: "start",
        partial: { ...msg, content: [], usage: { ...msg.usage, cost: { ...msg.usage.cost } } },
      });
    }
    return this;
  }

  textDelta(delta: string): FeedResult {
    if (this.ended) return "ended";
    this.start();
    if (delta === "") return "ok";
    let open = this.open;
    if (open?.kind !== "text") {
      this.closeOpen(undefined);
      const block: TextContent = { type: "text", text: "" };
      open = { kind: "text", block, index: this.msg.content.push(block) - 1 };
      this.open = open;
      this.sink.push({ type: "text_start", contentIndex: open.index });
    }
    open.block.text += delta;
    this.sink.push({ type: "text_delta", contentIndex: open.index, delta });
    return this.guardDelta((this.textGuard ??= this.newGuard()), delta, open.block);
  }

  thinkingDelta(delta: string, signature?: string): FeedResult {
    if (this.ended) return "ended";
    this.start();
    let open = this.open;
    if (open?.kind !== "thinking") {
      this.closeOpen(undefined);
      const block: ThinkingContent = { type: "thinking", thinking: "" };
      open = { kind: "thinking", block, index: this.msg.content.push(block) - 1 };
      this.open = open;
      this.sink.push({ type: "thinking_start", contentIndex: open.index });
    }
    if (signature !== undefined) open.block.signature = signature;
    if (delta === "") return "ok";
    open.block.thinking += delta;
    this.sink.push({ type: "thinking_delta", contentIndex: open.index, delta });
    return this.guardDelta((this.thinkingGuard ??= this.newGuard()), delta, open.block);
  }

  /** Sets the signature of the open thinking block, or of the last (not redacted) one when none is open. */
  thinkingSignature(signature: string): FeedResult {
    if (this.ended) return "ended";
    const block =
      this.open?.kind === "thinking"
        ? this.open.block
        : this.msg.content.findLast((b) => b.type === "thinking" && !b.redacted);
    if (block?.type === "thinking") block.signature = signature;
    return "ok";
  }

  /** A whole redacted (encrypted) thinking block; `data` travels back to the provider unchanged. */
  redactedThinking(data: string): FeedResult {
    if (this.ended) return "ended";
    this.start();
    this.closeOpen(undefined);
    const block: ThinkingContent = { type: "thinking", thinking: data, redacted: true };
    const index = this.msg.content.push(block) - 1;
    this.sink.push({ type: "thinking_start", contentIndex: index });
    this.sink.push({ type: "thinking_end", contentIndex: index, thinking: data });
    return "ok";
  }

  toolCallStart(id: string, name: string): FeedResult {
    if (this.ended) return "ended";
    this.start();
    this.closeOpen(undefined);
    const block: ToolCall = { type: "toolCall", id, name, arguments: {} };
    const index = this.msg.content.push(block) - 1;
    this.open = { kind: "tool", block, index, raw: "" };
    this.sink.push({ type: "toolcall_start", contentIndex: index, id, name });
    return "ok";
  }

  /** Appends to the open tool call's argument JSON. Ignored when no tool call is open. */
  toolCallDelta(fragment: string): FeedResult {
    if (this.ended) return "ended";
    const open = this.open;
    if (open?.kind !== "tool" || fragment === "") return "ok";
    open.raw += fragment;
    this.sink.push({ type: "toolcall_delta", contentIndex: open.index, delta: fragment });
    return "ok";
  }

  /**
   * Closes the open block as complete: the provider said it ended (Anthropic's
   * `content_block_stop`, a new tool-call index on Chat Completions). A tool call's JSON is
   * settled now, so a stream that drops later does not mark it `truncated`, and the next delta of
   * the same kind opens a new block instead of merging into this one (two thinking blocks keep
   * their own signatures). A no-op when no block is open.
   *
   * A tool call whose JSON does not parse stays open: Anthropic closes a block the output cap cut
   * too, so only the turn's ending can say whether it was `truncated` (a `length` stop, a dropped
   * stream) or `malformed_json` (any other ending, or another block after it).
   */
  closeBlock(): FeedResult {
    if (this.ended) return "ended";
    if (this.open?.kind === "tool" && parseArguments(this.open.raw) === undefined) return "ok";
    this.closeOpen(undefined);
    return "ok";
  }

  /** Records provider-reported counts; later calls override the fields they carry. */
  usage(counts: UsageCounts): FeedResult {
    if (this.ended) return "ended";
    this.counts = { ...this.counts, ...withoutUndefined(counts) };
    return "ok";
  }

  responseId(id: string): FeedResult {
    if (this.ended) return "ended";
    this.msg.responseId = id;
    return "ok";
  }

  /**
   * Ends a turn the provider finished. A `length` stop closes an open tool call as `truncated`; a
   * `length` stop with no text and no tool call becomes `error`/`length_empty`; a `stop` carrying
   * tool calls becomes `toolUse` (some gateways say `stop` there).
   */
  finish(stopReason: "stop" | "length" | "toolUse"): AssistantMessage {
    if (this.ended) return this.msg;
    this.start();
    this.closeOpen(stopReason === "length" ? "truncated" : undefined);
    if (stopReason === "length" && this.isEmpty()) {
      const cap = this.options.maxTokens ?? this.model.maxTokens;
      return this.endError(
        "length_empty",
        `stopped at the output cap (${cap} tokens) before producing any text or tool call`,
      );
    }
    const hasToolCall = this.msg.content.some((b) => b.type === "toolCall");
    this.msg.stopReason = stopReason === "stop" && hasToolCall ? "toolUse" : stopReason;
    return this.endDone();
  }

  /** Ends the turn as a failure of the given kind (`aborted` gives `stopReason: "aborted"`). Keeps what arrived. */
  fail(errorKind: ErrorKind, errorMessage: string, extra: { retryAfterMs?: number } = {}): AssistantMessage {
    if (this.ended) return this.msg;
    this.start();
    this.closeOpen("truncated");
    if (extra.retryAfterMs !== undefined && Number.isFinite(extra.retryAfterMs) && extra.retryAfterMs >= 0) {
      this.msg.retryAfterMs = extra.retryAfterMs;
    }
    return this.endError(errorKind, errorMessage);
  }

  /** Ends the turn because the caller's signal fired. */
  abort(reason = "the request was aborted"): AssistantMessage {
    return this.fail("aborted", reason);
  }

  /**
   * The stream dropped or stalled: keep what arrived as a `stop` turn with `partialFinalized`, and
   * `errorKind` when the cut had a cause (`timeout` for a stall). An open tool call whose JSON
   * already parses is complete (a JSON object cannot go on after its closing brace), whether or
   * not the provider said so — so every brain keeps the same calls from the same bytes; any other
   * open call is `truncated`. When no text and no tool call arrived (nothing, or thinking only)
   * there is no answer to keep, so the turn is an `error` of that kind (`network` when none was
   * given) instead of an empty success; whatever thinking arrived stays in `content`.
   */
  cutShort(errorKind?: ErrorKind, errorMessage?: string): AssistantMessage {
    if (this.ended) return this.msg;
    this.start();
    this.closeOpen(this.openCallIsWhole() ? undefined : "truncated");
    if (this.isEmpty()) {
      return this.endError(errorKind ?? "network", errorMessage ?? "the stream ended before any answer arrived");
    }
    this.msg.stopReason = "stop";
    this.msg.partialFinalized = true;
    if (errorKind) this.msg.errorKind = errorKind;
    this.msg.errorMessage = this.redact(errorMessage ?? "the stream ended early; what arrived was kept");
    return this.endDone();
  }

  private guardDelta(
    guard: RepetitionGuard | undefined,
    delta: string,
    block: TextContent | ThinkingContent,
  ): FeedResult {
    if (!guard) return "ok";
    const verdict = guard.push(delta);
    if (!verdict.cut) return "ok";
    // The guard saw every delta of this kind in the turn; the looping tail is dropped from the
    // open block only (a loop does not reach back across another block).
    const drop = guard.text.length - verdict.keep;
    if (block.type === "text") block.text = block.text.slice(0, Math.max(0, block.text.length - drop));
    else block.thinking = block.thinking.slice(0, Math.max(0, block.thinking.length - drop));
    this.cut = true;
    this.closeOpen(undefined);
    this.endError(
      "degenerate_repetition",
      `the model repeated ${verdict.reason === "periodic" ? `a ${verdict.period}-character block` : "a passage"} ` +
        `in its ${block.type}; the stream was cut and the text before the loop kept`,
    );
    return "cut";
  }

  /** The open block is a tool call whose streamed JSON is a whole object (not an empty start). */
  private openCallIsWhole(): boolean {
    const open = this.open;
    return open?.kind === "tool" && open.raw.trim() !== "" && parseArguments(open.raw) !== undefined;
  }

  private isEmpty(): boolean {
    return !this.msg.content.some((b) => (b.type === "text" && b.text.trim() !== "") || b.type === "toolCall");
  }

  private closeOpen(toolCut: "truncated" | undefined): void {
    const open = this.open;
    if (!open) return;
    this.open = undefined;
    if (open.kind === "text") {
      this.sink.push({ type: "text_end", contentIndex: open.index, text: open.block.text });
    } else if (open.kind === "thinking") {
      this.sink.push({ type: "thinking_end", contentIndex: open.index, thinking: open.block.thinking });
    } else {
      settleToolCall(open.block, open.raw, toolCut);
      this.sink.push({ type: "toolcall_end", contentIndex: open.index, toolCall: copyToolCall(open.block, open.raw) });
    }
  }

  private endDone(): AssistantMessage {
    this.ended = true;
    this.msg.usage = this.finalUsage();
    markBuiltTurn(this.msg);
    this.sink.push({ type: "done", message: this.msg });
    return this.msg;
  }

  private endError(errorKind: ErrorKind, errorMessage: string): AssistantMessage {
    this.ended = true;
    this.msg.stopReason = errorKind === "aborted" ? "aborted" : "error";
    this.msg.errorKind = errorKind;
    this.msg.errorMessage = this.redact(errorMessage);
    this.msg.usage = this.finalUsage();
    markBuiltTurn(this.msg);
    this.sink.push({ type: "error", message: this.msg });
    return this.msg;
  }

  private redact(text: string): string {
    return this.options.secrets ? redactSecrets(text, this.options.secrets) : text;
  }

  private finalUsage() {
    const c = this.counts;
    const input =
      c.input ?? estimateSafely(() => (this.options.context ? estimateContextTokens(this.options.context) : 0));
    const output = c.output ?? estimateSafely(() => estimateOutputTokens(this.msg));
    const estimated = c.input === undefined || c.output === undefined;
    return usageFor(this.model, {
      input,
      output,
      cacheRead: c.cacheRead,
      cacheWrite: c.cacheWrite,
      reasoning: c.reasoning,
      estimated,
    });
  }
}

/**
 * An ender must always push its terminal event: a context the caller shaped oddly (a message
 * without content) makes the estimate 0 rather than throwing after the turn was marked ended,
 * which would leave `result()` pending forever.
 */
function estimateSafely(estimate: () => number): number {
  try {
    return estimate();
  } catch {
    return 0;
  }
}
