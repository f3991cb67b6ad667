import { describeError } from "@x/llm-types";
import type { BrainRequest } from "@x/llm-types";
import { CallControl, DEFAULT_STALL_TIMEOUT_MS, pumpCall, settleCall, type ItemSink } from "./call-control";
import type { ClassifiedError } from "./provider-errors";
import type { FeedResult, TurnBuilder } from "./turn-builder";

/**
 * One streamed provider call as a brain describes it to {@link runStreamedCall}: how to build the
 * request, open the SDK's stream, read each item, and say how the provider finished. Everything
 * around that — the deadline, the stall timer, the guard's cut, and how a cut or failed call ends
 * the turn — is the same for every brain and lives in one place.
 */
export interface StreamedCall<Body, Item> {
  /** Builds the provider's request body; a throw ends the turn `bad_request` before any bytes go out. */
  build(): Body;
  /**
   * Sends `body` under `signal` and hands each streamed item to `sink` as it arrives, until the
   * sink says stop or the stream ends; settles when the stream is over (rejects with what cut it).
   */
  open(body: Body, signal: AbortSignal, sink: ItemSink<Item>): Promise<void>;
  /** Feeds one streamed item to the brain's reader; `"cut"` when the repetition guard ended the turn. */
  read(item: Item): FeedResult;
  /** Read after the stream: ends the turn the way the provider finished it, or undefined when it never said. */
  finish(): (() => void) | undefined;
  /** Reads an error the provider's SDK raised; undefined for anything that is not the SDK's. */
  classify(error: unknown): ClassifiedError | undefined;
}

/**
 * Runs one streamed call and ends `turn` from how it went. The stall timeout is the request's,
 * else the brain's (`brainStallTimeoutMs`), else {@link DEFAULT_STALL_TIMEOUT_MS}; never rejects.
 */
export async function runStreamedCall<Body, Item>(
  turn: TurnBuilder,
  request: BrainRequest,
  brainStallTimeoutMs: number | undefined,
  call: StreamedCall<Body, Item>,
): Promise<void> {
  let body: Body;
  try {
    body = call.build();
  } catch (error) {
    turn.fail("bad_request", `could not build the request: ${describeError(error)}`);
    return;
  }
  const control = new CallControl(
    request.signal,
    request.timeoutMs,
    request.stallTimeoutMs ?? brainStallTimeoutMs ?? DEFAULT_STALL_TIMEOUT_MS,
  );
  const outcome = await pumpCall<Item>(
    control,
    (signal, sink) => call.open(body, signal, sink),
    (item) => call.read(item),
  );
  settleCall(turn, control, { ...outcome, finish: call.finish(), classify: (error) => call.classify(error) });
}
