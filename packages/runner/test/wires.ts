import { ANTHROPIC_MESSAGES_API, createAnthropicBrain } from "@x/brain-anthropic";
import { anthropicTurnFrames, startAnthropicMockServer, type AnthropicMockReply } from "@x/brain-anthropic/testing";
import { createOpenAIBrain, OPENAI_COMPLETIONS_API } from "@x/brain-openai";
import { openAITurnFrames, startOpenAIMockServer, type OpenAIMockReply } from "@x/brain-openai/testing";
import type { RecordedRequest, WireReply } from "@x/brain-kit/testing";
import { defineModel, type Brain, type Model } from "@x/llm-types";
import { createRunner } from "../src/entry/runner";
import type { TaskSpec } from "../src/vocabulary/types";
import { fakeClock, recorder } from "./harness";

// The two real brains on their loopback servers, behind one shape, so a fault is scripted once and
// played on both wires.

/** The API key both brains send; a provider that echoes it must never get it into a message. */
export const WIRE_KEY = "sk-live-wire-0123456789abcdef";

/** What a scripted model says: text, then at most one tool call. */
export interface WireTurn {
  text?: string[];
  /** `input` as a string is streamed verbatim (it may be malformed or hostile). */
  tool?: { id: string; name: string; input: string | Record<string, unknown> };
}

/** A provider HTTP error, in the provider's own shape. */
export interface WireError {
  status: number;
  message: string;
  headers?: Record<string, string>;
}

/** How one request is answered: a full turn, a provider error, or anything at the wire level. */
export type WireAnswer = { turn: WireTurn } | { error: WireError } | { wire: WireReply };

export interface WireServer {
  readonly baseUrl: string;
  /** The JSON bodies of the provider requests the server answered, in order. */
  bodies(): Array<Record<string, unknown>>;
  close(): Promise<void>;
}

export interface WireUnderTest {
  /** The column name in the fault matrix. */
  name: string;
  /** Status a provider sends when it is overloaded (OpenAI 503, Anthropic 529). */
  overloadedStatus: number;
  /** The turn's SSE frames exactly as the provider would stream them for `request`. */
  frames(turn: WireTurn, request: RecordedRequest): string[];
  /** The frames that end a stream at the output cap (`length` / `max_tokens`), usage included. */
  capEnding(request: RecordedRequest): string[];
  /** A frame whose JSON does not parse, on this wire. */
  badFrame: string;
  start(answer: (request: RecordedRequest, index: number) => WireAnswer): Promise<WireServer>;
  brain(options: { stallTimeoutMs: number }): Brain;
  model(baseUrl: string, maxTokens: number): Model;
}

const ANTHROPIC_ERROR_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  429: "rate_limit_error",
  500: "api_error",
  529: "overloaded_error",
};

function openAIReply(answer: WireAnswer): OpenAIMockReply {
  if ("wire" in answer) return { kind: "wire", reply: answer.wire };
  if ("error" in answer) return { kind: "error", error: { ...answer.error, type: "server_error" } };
  const { text, tool } = answer.turn;
  return {
    ...(text ? { text } : {}),
    ...(tool ? { toolCalls: [{ id: tool.id, name: tool.name, arguments: tool.input }] } : {}),
  };
}

function openAIFrames(turn: WireTurn, request: RecordedRequest): string[] {
  const reply = openAIReply({ turn });
  return openAITurnFrames(reply as Exclude<OpenAIMockReply, { kind: string }>, request);
}

function anthropicBlocks(turn: WireTurn) {
  return [
    ...(turn.text ? [{ type: "text" as const, text: turn.text }] : []),
    ...(turn.tool ? [{ type: "tool_use" as const, ...turn.tool }] : []),
  ];
}

function anthropicReply(answer: WireAnswer): AnthropicMockReply {
  if ("wire" in answer) return { kind: "wire", reply: answer.wire };
  if ("error" in answer)
    return {
      kind: "error",
      error: { ...answer.error, type: ANTHROPIC_ERROR_TYPES[answer.error.status] ?? "api_error" },
    };
  return { blocks: anthropicBlocks(answer.turn) };
}

export const chatCompletions: WireUnderTest = {
  name: "Chat Completions",
  overloadedStatus: 503,
  frames: openAIFrames,
  capEnding: (request) => fromFinish(openAITurnFrames({ finishReason: "length" }, request)),
  badFrame: 'data: {"id":"chatcmpl-mock","choices":[{"index":0,"delta":{"content":"x"\n\n',
  start: async (answer) => startOpenAIMockServer((request, index) => openAIReply(answer(request, index))),
  brain: ({ stallTimeoutMs }) => createOpenAIBrain({ apiKey: WIRE_KEY, stallTimeoutMs }),
  model: (baseUrl, maxTokens) =>
    defineModel({
      id: "gpt-mock",
      api: OPENAI_COMPLETIONS_API,
      provider: "openai",
      baseUrl,
      contextWindow: 128_000,
      maxTokens,
    }),
};

export const anthropicMessages: WireUnderTest = {
  name: "Anthropic Messages",
  overloadedStatus: 529,
  frames: (turn, request) => anthropicTurnFrames({ blocks: anthropicBlocks(turn) }, request),
  capEnding: (request) => fromFinish(anthropicTurnFrames({ blocks: [], stopReason: "max_tokens" }, request)),
  badFrame: 'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{\n\n',
  start: async (answer) => startAnthropicMockServer((request, index) => anthropicReply(answer(request, index))),
  brain: ({ stallTimeoutMs }) => createAnthropicBrain({ apiKey: WIRE_KEY, stallTimeoutMs }),
  model: (baseUrl, maxTokens) =>
    defineModel({
      id: "claude-mock",
      api: ANTHROPIC_MESSAGES_API,
      provider: "anthropic",
      baseUrl,
      contextWindow: 200_000,
      maxTokens,
    }),
};

export const WIRES: readonly WireUnderTest[] = [chatCompletions, anthropicMessages];

/** The frames of `turn` up to and including the first one containing `marker` (all when absent). */
export function framesThrough(frames: string[], marker: string | RegExp): string[] {
  const at = frames.findIndex((frame) => (typeof marker === "string" ? frame.includes(marker) : marker.test(frame)));
  return at < 0 ? frames : frames.slice(0, at + 1);
}

const FINISH = /"(finish|stop)_reason":"/;

/** The frames before the first one that carries the provider's stop/finish reason. */
export function framesBeforeFinish(frames: string[]): string[] {
  const at = frames.findIndex((frame) => FINISH.test(frame));
  return at < 0 ? frames : frames.slice(0, at);
}

/** The frames from the first one that carries the provider's stop/finish reason on. */
function fromFinish(frames: string[]): string[] {
  return frames.slice(frames.findIndex((frame) => FINISH.test(frame)));
}

export interface WireRunOptions {
  /** The brain's stall timer. Default 10 s: long, so a slow machine is not read as a stall. */
  stallTimeoutMs?: number;
  /** The run has the `write` tool. */
  tools?: boolean;
  spec?: Partial<TaskSpec>;
}

/**
 * One run of the real runner on `wire`'s brain, its loopback server answering each request as
 * `answer` says: output cap 1000 of the model's 4000, retries with the jitter fixed at its middle
 * and sleeps that pass at once (recorded).
 */
export async function runOnWire(
  wire: WireUnderTest,
  answer: (request: RecordedRequest, index: number) => WireAnswer,
  options: WireRunOptions = {},
) {
  const server = await wire.start(answer);
  const write = recorder("write");
  const clock = fakeClock();
  try {
    const runner = createRunner({
      brains: [wire.brain({ stallTimeoutMs: options.stallTimeoutMs ?? 10_000 })],
      models: { main: wire.model(server.baseUrl, 4000) },
      clock,
      retry: { random: () => 0.5 },
    });
    const result = await runner.runTask({
      objective: "What is the answer?",
      maxTokens: 1000,
      ...(options.tools ? { tools: [write.tool] } : {}),
      ...options.spec,
    });
    return { result, bodies: server.bodies(), calls: write.calls, sleeps: clock.sleeps };
  } finally {
    await server.close();
  }
}
