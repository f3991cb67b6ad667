import { EventStream, defineModel, type AssistantMessage, customApi } from "@x/llm-types";
import { describe, expect, it } from "vitest";
import { CallControl, pumpCall, settleCall, type CallOutcome, type ItemSink } from "./call-control";
import type { ClassifiedError } from "./provider-errors";
import { TurnBuilder } from "./turn-builder";

const model = defineModel({
  id: "m",
  api: customApi("test"),
  provider: "test",
  baseUrl: "http://127.0.0.1:1",
  contextWindow: 1000,
  maxTokens: 100,
});

class SdkError extends Error {}
const classify = (error: unknown): ClassifiedError | undefined =>
  error instanceof SdkError ? { kind: "overloaded", message: error.message, retryAfterMs: 500 } : undefined;

/** Settles a turn that already received `text`, with the control cut for `reason` (if any). */
function settle(
  outcome: Partial<CallOutcome>,
  reason?: "aborted" | "timeout" | "stall",
  text = "partial",
): AssistantMessage {
  const turn = new TurnBuilder({ model, stream: new EventStream() });
  if (text) turn.textDelta(text);
  const control = new CallControl(undefined, 5000, 5000);
  if (reason) control.cut(reason);
  settleCall(turn, control, { finish: undefined, classify, ...outcome });
  control.dispose();
  return turn.message;
}

describe("CallControl", () => {
  it("remembers the first reason and aborts its controller once", () => {
    const control = new CallControl(undefined, undefined, 0);
    control.cut("stall");
    control.cut("aborted");
    expect(control.reason).toBe("stall");
    expect(control.controller.signal.aborted).toBe(true);
    control.dispose();
  });

  it("a caller signal already aborted cuts at once; one aborted later cuts then", () => {
    const early = new CallControl(AbortSignal.abort(), undefined, 0);
    expect(early.reason).toBe("aborted");
    early.dispose();
    const caller = new AbortController();
    const late = new CallControl(caller.signal, undefined, 0);
    expect(late.reason).toBeUndefined();
    caller.abort();
    expect(late.reason).toBe("aborted");
    late.dispose();
  });

  it("fires the deadline and the stall timer (real timers, generous margins)", async () => {
    const deadline = new CallControl(undefined, 10, 0);
    const stall = new CallControl(undefined, undefined, 10);
    stall.heartbeat();
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(deadline.reason).toBe("timeout");
    expect(stall.reason).toBe("stall");
    deadline.dispose();
    stall.dispose();
  });

  it("dispose stops the timers and stops listening to the caller", async () => {
    const caller = new AbortController();
    const control = new CallControl(caller.signal, 10, 10);
    control.heartbeat();
    control.dispose();
    caller.abort();
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(control.reason).toBeUndefined();
  });

  it("a heartbeat re-arms the stall timer: after several, it still fires once the beats stop", async () => {
    const stall = new CallControl(undefined, undefined, 10);
    for (let i = 0; i < 5; i++) stall.heartbeat();
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(stall.reason).toBe("stall");
    stall.heartbeat();
    stall.dispose();
  });

  it("a heartbeat after dispose does not bring the stall timer back", async () => {
    const control = new CallControl(undefined, undefined, 10);
    control.heartbeat();
    control.dispose();
    control.heartbeat();
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(control.reason).toBeUndefined();
  });
});

describe("settleCall", () => {
  it("an abort wins over a finish and over an error", () => {
    expect(settle({ finish: () => undefined, error: new SdkError("x") }, "aborted")).toMatchObject({
      stopReason: "aborted",
      errorKind: "aborted",
    });
  });

  it("a provider that finished loses nothing to a later stall", () => {
    const turn = new TurnBuilder({ model, stream: new EventStream() });
    turn.textDelta("complete");
    const control = new CallControl(undefined, undefined, 0);
    control.cut("stall");
    settleCall(turn, control, { finish: () => turn.finish("stop"), classify });
    expect(turn.message).toMatchObject({ stopReason: "stop" });
    expect(turn.message.partialFinalized).toBeUndefined();
  });

  it("a stall or deadline keeps what arrived as timeout; with nothing arrived it is an error", () => {
    expect(settle({}, "stall")).toMatchObject({
      stopReason: "stop",
      partialFinalized: true,
      errorKind: "timeout",
      errorMessage: expect.stringContaining("stall"),
    });
    expect(settle({}, "timeout")).toMatchObject({ stopReason: "stop", partialFinalized: true, errorKind: "timeout" });
    expect(settle({}, "timeout", "")).toMatchObject({ stopReason: "error", errorKind: "timeout" });
  });

  it("a clean end without a finish keeps what arrived as network", () => {
    expect(settle({})).toMatchObject({ stopReason: "stop", partialFinalized: true, errorKind: "network" });
  });

  it("an SDK error becomes its classified kind with the retry hint", () => {
    expect(settle({ error: new SdkError("Overloaded") })).toMatchObject({
      stopReason: "error",
      errorKind: "overloaded",
      errorMessage: "Overloaded",
      retryAfterMs: 500,
    });
  });

  it("a dropped connection keeps what arrived; a bug is a provider failure, not a network blip", () => {
    const dropped = Object.assign(new TypeError("terminated"), {
      cause: Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" }),
    });
    expect(settle({ error: dropped })).toMatchObject({
      stopReason: "stop",
      partialFinalized: true,
      errorKind: "network",
    });
    const bug = settle({ error: new TypeError("Cannot read properties of undefined (reading 'x')") });
    expect(bug).toMatchObject({
      stopReason: "error",
      errorKind: "provider",
      errorMessage: expect.stringContaining("internal error: Cannot read"),
    });
    expect(bug.partialFinalized).toBeUndefined();
  });

  it("leaves a turn the guard already ended alone", () => {
    const turn = new TurnBuilder({ model, stream: new EventStream() });
    turn.textDelta("x");
    const ended = turn.fail("degenerate_repetition", "looped");
    settleCall(turn, new CallControl(undefined, undefined, 0), {
      finish: undefined,
      error: new SdkError("late"),
      classify,
    });
    expect(turn.message).toBe(ended);
    expect(ended.errorKind).toBe("degenerate_repetition");
  });
});

describe("pumpCall", () => {
  /** An open that hands `list` to the sink until it says stop, then throws `failWith` if given. */
  function items(list: string[], failWith?: Error) {
    return (sink: ItemSink<string>): Promise<void> => {
      for (const item of list) if (!sink(item)) break;
      return failWith ? Promise.reject(failWith) : Promise.resolve();
    };
  }

  it("feeds every item, hands the open the control's signal, and disposes the control", async () => {
    const caller = new AbortController();
    const control = new CallControl(caller.signal, undefined, 0);
    const seen: string[] = [];
    let signal: AbortSignal | undefined;
    const outcome = await pumpCall<string>(
      control,
      (s, sink) => ((signal = s), items(["a", "b"])(sink)),
      (item) => (seen.push(item), "ok"),
    );
    expect(outcome).toEqual({});
    expect(seen).toEqual(["a", "b"]);
    expect(signal).toBe(control.controller.signal);
    caller.abort();
    expect(control.reason).toBeUndefined();
  });

  it("stops and cuts the request when the guard cut the turn", async () => {
    const control = new CallControl(undefined, undefined, 0);
    const seen: string[] = [];
    await pumpCall<string>(
      control,
      (_signal, sink) => items(["a", "loop", "never"])(sink),
      (item) => (seen.push(item), item === "loop" ? "cut" : "ok"),
    );
    expect(seen).toEqual(["a", "loop"]);
    expect(control.reason).toBe("guard");
    expect(control.controller.signal.aborted).toBe(true);
  });

  it("runs the stall timer while waiting for the provider to answer at all", async () => {
    const control = new CallControl(undefined, undefined, 10);
    const never = (signal: AbortSignal) =>
      new Promise<void>((_resolve, reject) => signal.addEventListener("abort", () => reject(new Error("aborted"))));
    const outcome = await pumpCall(control, never, () => "ok");
    expect(control.reason).toBe("stall");
    expect(outcome.error).toBeInstanceOf(Error);
  });

  it("resolves with what the open or the stream threw, never rejects", async () => {
    const boom = new Error("boom");
    expect(
      await pumpCall(
        new CallControl(undefined, undefined, 0),
        () => Promise.reject(boom),
        () => "ok",
      ),
    ).toEqual({ error: boom });
    expect(
      await pumpCall(
        new CallControl(undefined, undefined, 0),
        (_signal, sink) => items(["a"], boom)(sink),
        () => "ok",
      ),
    ).toEqual({ error: boom });
  });
});
