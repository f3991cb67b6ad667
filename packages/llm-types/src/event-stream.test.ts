import { describe, expect, it } from "vitest";
import type { BrainEvent } from "./brain";
import { EventStream } from "./event-stream";
import type { AssistantMessage } from "./messages";
import { emptyUsage } from "./usage";

const final: AssistantMessage = {
  role: "assistant",
  content: [{ type: "text", text: "ok" }],
  api: "faux",
  provider: "faux",
  model: "m",
  usage: emptyUsage(),
  stopReason: "stop",
  timestamp: 0,
};

describe("EventStream", () => {
  it("delivers events pushed before and after the consumer starts, then ends", async () => {
    const stream = new EventStream();
    stream.push({ type: "text_start", contentIndex: 0 });
    const seen: BrainEvent["type"][] = [];
    const consumer = (async () => {
      for await (const event of stream) seen.push(event.type);
    })();
    await Promise.resolve();
    stream.push({ type: "text_delta", contentIndex: 0, delta: "ok" });
    stream.push({ type: "done", message: final });
    stream.push({ type: "text_delta", contentIndex: 0, delta: "late" });
    await consumer;
    expect(seen).toEqual(["text_start", "text_delta", "done"]);
    await expect(stream.result()).resolves.toBe(final);
  });

  it("settles result() without anyone iterating", async () => {
    const stream = new EventStream();
    stream.push({ type: "error", message: { ...final, stopReason: "error", errorKind: "network" } });
    expect(stream.isEnded).toBe(true);
    expect((await stream.result()).errorKind).toBe("network");
  });
});
