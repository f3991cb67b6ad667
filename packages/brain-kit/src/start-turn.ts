import {
  EventStream,
  emptyUsage,
  type AssistantMessage,
  type BrainRequest,
  type BrainStream,
  type Context,
  type Model,
  describeError,
} from "@x/llm-types";
import { credentialsIn, headerLines, redactSecrets } from "./redact";
import type { RepetitionGuardOptions } from "./repetition-guard";
import { TurnBuilder } from "./turn-builder";
import { isVouched } from "./vouched-messages";

/** The options every HTTP brain takes (each brain adds its own and documents its key's default). */
export interface HttpBrainOptions {
  /** API key; each brain documents its environment default. Never appears in any message. */
  apiKey?: string;
  /** Used for models whose `baseUrl` is not an http(s) URL. */
  baseUrl?: string;
  /** Headers on every request; the model's `headers` and the request's go over them. */
  headers?: Record<string, string>;
  /**
   * No bytes for this long (from the request on) ⇒ keep what arrived, `partialFinalized`. Default 120 000 ms;
   * `request.stallTimeoutMs` wins.
   */
  stallTimeoutMs?: number;
  /**
   * A `fetch` to carry the calls (proxies, instrumentation). Default: the brain's own transport
   * (`node:http` for the OpenAI brains, the global `fetch` otherwise).
   */
  fetch?: typeof globalThis.fetch;
  /** Repetition-guard tuning, or `false` to turn the guard off. */
  guard?: RepetitionGuardOptions | false;
}

export interface StartTurnOptions {
  /** The wire the brain speaks, stamped on a turn refused before a model could be read. */
  api: string;
  /** The brain's API key: scrubbed from every message, as are credential headers. */
  apiKey?: string;
  /** The brain's own headers (the model's and the request's are read from the call). */
  headers?: Record<string, string>;
  /** Repetition guard for the turn; `false` turns it off. */
  guard?: RepetitionGuardOptions | false;
}

/**
 * The {@link StartTurnOptions} of a brain on an official SDK: its wire, key and guard, and its own
 * headers together with those the SDK adds on every request from `sdkHeaderLines` (the text of, e.g.,
 * `OPENAI_CUSTOM_HEADERS`; no SDK option turns them off), so their credentials are scrubbed too.
 */
export function sdkTurnOptions(
  api: string,
  apiKey: string | undefined,
  sdkHeaderLines: string | undefined,
  options: HttpBrainOptions,
): StartTurnOptions {
  return { api, apiKey, headers: { ...headerLines(sdkHeaderLines), ...options.headers }, guard: options.guard };
}

/**
 * Starts one `Brain.stream` call the way the Brain contract wants it, so no brain has to get it
 * right alone: the call never throws and `result()` never rejects. A call whose model, context or
 * request is not even the right shape ends at once as `bad_request`; otherwise `run` gets a
 * {@link TurnBuilder} (with the call's cap, context for estimates, credentials to scrub) and the
 * request. Whatever `run` throws, and a `run` that returns without ending the turn, ends it as a
 * `provider` failure naming the cause.
 */
export function startTurn(
  model: Model,
  context: Context,
  request: BrainRequest | undefined,
  options: StartTurnOptions,
  run: (turn: TurnBuilder, request: BrainRequest) => Promise<void>,
): BrainStream {
  const stream = new EventStream();
  const problem = callProblem(model, context, request);
  if (problem) {
    refuse(stream, options, model, problem);
    return stream;
  }
  const call = request ?? {};
  let turn: TurnBuilder;
  try {
    turn = new TurnBuilder({
      model,
      stream,
      guard: options.guard,
      maxTokens: call.maxTokens,
      context,
      secrets: credentialsIn(options.apiKey, options.headers, model.headers, call.headers),
    });
  } catch (error) {
    refuse(stream, options, model, `the turn could not start: ${describeError(error)}`);
    return stream;
  }
  const crashed = (error: unknown) => turn.fail("provider", `internal error: ${describeError(error)}`);
  try {
    run(turn, call).then(() => {
      if (!turn.isEnded) turn.fail("provider", "the brain returned without ending the turn");
    }, crashed);
  } catch (error) {
    crashed(error);
  }
  return stream;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Why the call cannot be made at all, or undefined. Shape only: the provider judges the content. */
function callProblem(model: unknown, context: unknown, request: unknown): string | undefined {
  if (!isRecord(model)) return "the model is not an object";
  for (const field of ["id", "api", "provider", "baseUrl"]) {
    if (typeof model[field] !== "string") return `the model has no string \`${field}\``;
  }
  if (typeof model.maxTokens !== "number") return "the model has no numeric `maxTokens`";
  if (model.headers !== undefined && !isRecord(model.headers)) return "the model's `headers` is not an object";
  if (!isRecord(context)) return "the context is not an object";
  if (!Array.isArray(context.messages)) return "the context has no `messages` array";
  if (
    !isVouched(context.messages) &&
    !context.messages.every(
      (m) => isRecord(m) && (m.role === "user" || m.role === "assistant" || m.role === "toolResult"),
    )
  ) {
    return "a context message is not a user, assistant or toolResult message";
  }
  if (context.tools !== undefined && !Array.isArray(context.tools)) return "the context's `tools` is not an array";
  if (request !== undefined && !isRecord(request)) return "the request is not an object";
  if (request?.headers !== undefined && !isRecord(request.headers)) return "the request's `headers` is not an object";
  return undefined;
}

function refuse(stream: EventStream, options: StartTurnOptions, model: unknown, problem: string): void {
  const named = isRecord(model) ? model : {};
  const text = (value: unknown) => (typeof value === "string" ? value : "unknown");
  const message: AssistantMessage = {
    role: "assistant",
    content: [],
    api: options.api,
    provider: text(named.provider),
    model: text(named.id),
    usage: emptyUsage(),
    stopReason: "error",
    errorKind: "bad_request",
    errorMessage: redactSecrets(`invalid call: ${problem}`, credentialsIn(options.apiKey, options.headers)),
    timestamp: Date.now(),
  };
  stream.push({ type: "start", partial: structuredClone(message) });
  stream.push({ type: "error", message });
}
