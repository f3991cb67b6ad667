import { assistantText, type BrainEvent, type BrainStream, type Context } from "@x/llm-types";
import { describe, expect, it } from "vitest";
import { createFauxBrain } from "./brain";
import { fauxModel } from "./model";
import { fauxDelay, fauxLoop, fauxStall, fauxText, fauxThinking, fauxToolCall, type FauxResponse } from "./response";

const model = fauxModel();
const context: Context = { messages: [{ role: "user", content: "go" }] };

async function collect(stream: BrainStream): Promise<BrainEvent[]> {
  const events: BrainEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

describe("faux streaming details", () => {
  it("chunkSize sets the delta size for text, thinking and tool arguments; each kind concatenates", async () => {
    const reply: FauxResponse = {
      content: [
        { type: "thinking", thinking: "Consider the options carefully." },
        { type: "text", text: "Doing it." },
        { type: "toolCall", name: "save", arguments: { body: "x".repeat(30) } },
      ],
    };
    const stream = createFauxBrain([reply], { chunkSize: 2 }).stream(model, context);
    const events = await collect(stream);
    const message = await stream.result();
    const joined = (type: string) =>
      events
        .filter((e) => e.type === type)
        .map((e) => ("delta" in e ? e.delta : ""))
        .join("");
    for (const e of events) if ("delta" in e) expect(e.delta.length).toBeLessThanOrEqual(2);
    expect(joined("thinking_delta")).toBe("Consider the options carefully.");
    expect(joined("text_delta")).toBe("Doing it.");
    expect(JSON.parse(joined("toolcall_delta"))).toEqual({ body: "x".repeat(30) });
    expect(message.stopReason).toBe("toolUse");
    expect(message.content.map((b) => b.type)).toEqual(["thinking", "text", "toolCall"]);
  });

  it("each scripted block is its own content block: two thinking blocks keep their own signatures", async () => {
    const reply: FauxResponse = {
      content: [
        { type: "thinking", thinking: "First.", signature: "sig-1" },
        { type: "thinking", thinking: "Second.", signature: "sig-2" },
        { type: "text", text: "one" },
        { type: "text", text: "two" },
      ],
    };
    const message = await createFauxBrain([reply]).stream(model, context).result();
    expect(message.content).toEqual([
      { type: "thinking", thinking: "First.", signature: "sig-1" },
      { type: "thinking", thinking: "Second.", signature: "sig-2" },
      { type: "text", text: "one" },
      { type: "text", text: "two" },
    ]);
  });

  it("fauxLoop's prefix and loop stream as one text block", async () => {
    const message = await createFauxBrain([fauxLoop("I will check again. ", { prefix: "Let me look. " })])
      .stream(model, context)
      .result();
    expect(message.content).toHaveLength(1);
    expect(assistantText(message).startsWith("Let me look. I will check again.")).toBe(true);
  });

  it("never splits a surrogate pair across deltas", async () => {
    const text = "emoji 😀😀 and more 🎉 text";
    const stream = createFauxBrain([fauxText(text)], { chunkSize: 1 }).stream(model, context);
    const deltas = (await collect(stream)).flatMap((e) => (e.type === "text_delta" ? [e.delta] : []));
    const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
    for (const delta of deltas) expect(loneSurrogate.test(delta)).toBe(false);
    expect(deltas.join("")).toBe(text);
  });

  it("thinking counts against the output cap", async () => {
    const stream = createFauxBrain([fauxThinking("t".repeat(100), "answer")]).stream(model, context, { maxTokens: 5 });
    const message = await stream.result();
    // 5 tokens = 20 characters, all spent thinking: nothing usable, so length_empty.
    expect(message).toMatchObject({ stopReason: "error", errorKind: "length_empty" });
    expect(message.content).toEqual([{ type: "thinking", thinking: "t".repeat(20) }]);
  });

  it("a cap hit inside a tool call's JSON truncates it", async () => {
    const stream = createFauxBrain([fauxToolCall("save", { body: "y".repeat(200) })]).stream(model, context, {
      maxTokens: 10,
    });
    const message = await stream.result();
    expect(message.stopReason).toBe("length");
    expect(message.content[0]).toMatchObject({ argumentsError: "truncated", arguments: {} });
  });

  it("partial provider usage is completed by estimate", async () => {
    const message = await createFauxBrain([fauxText("abcdefgh", { usage: { input: 42 } })])
      .stream(model, context)
      .result();
    expect(message.usage).toMatchObject({ input: 42, output: 2, estimated: true });
  });

  it("responseId is stamped on the message", async () => {
    const message = await createFauxBrain([fauxText("ok", { responseId: "resp_9" })])
      .stream(model, context)
      .result();
    expect(message.responseId).toBe("resp_9");
  });

  it("an async responder is awaited", async () => {
    const brain = createFauxBrain([async ({ callIndex }) => fauxText(`async ${callIndex}`)]);
    expect(assistantText(await brain.stream(model, context).result())).toBe("async 0");
    expect(brain.pending).toBe(0);
  });
});

describe("faux interruptions while waiting", () => {
  it("abort during a stall ends aborted, not partialFinalized", async () => {
    const controller = new AbortController();
    const stream = createFauxBrain([fauxStall("half")]).stream(model, context, {
      signal: controller.signal,
      stallTimeoutMs: 60_000,
    });
    let text = "";
    // The text block stays open while the stream is silent; abort once all of it has arrived.
    for await (const event of stream)
      if (event.type === "text_delta" && (text += event.delta) === "half") controller.abort();
    const message = await stream.result();
    expect(message).toMatchObject({ stopReason: "aborted", errorKind: "aborted" });
    expect(message.partialFinalized).toBeUndefined();
    expect(assistantText(message)).toBe("half");
  });

  it("the request deadline beats a longer stall timer, keeping what arrived as the real brains do", async () => {
    const stream = createFauxBrain([fauxStall("half")]).stream(model, context, {
      timeoutMs: 20,
      stallTimeoutMs: 60_000,
    });
    const message = await stream.result();
    expect(message).toMatchObject({ stopReason: "stop", partialFinalized: true, errorKind: "timeout" });
    expect(assistantText(message)).toBe("half");
  });

  it("the deadline ends a call whose async responder never answers", async () => {
    const stream = createFauxBrain([() => new Promise<FauxResponse>(() => undefined)]).stream(model, context, {
      timeoutMs: 20,
    });
    expect(await stream.result()).toMatchObject({ stopReason: "error", errorKind: "timeout", content: [] });
  });

  it("an abort ends a call whose async responder never answers", async () => {
    const controller = new AbortController();
    const stream = createFauxBrain([() => new Promise<FauxResponse>(() => undefined)]).stream(model, context, {
      signal: controller.signal,
    });
    controller.abort();
    expect(await stream.result()).toMatchObject({ stopReason: "aborted", errorKind: "aborted" });
  });

  it("abort during an initial delay ends aborted with nothing streamed", async () => {
    const controller = new AbortController();
    const stream = createFauxBrain([fauxDelay(60_000, fauxText("late"))]).stream(model, context, {
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 5);
    const events = await collect(stream);
    expect(events.map((e) => e.type)).toEqual(["start", "error"]);
    expect(await stream.result()).toMatchObject({ stopReason: "aborted", content: [] });
  });

  it("abort between delayed chunks stops the stream", async () => {
    const controller = new AbortController();
    const stream = createFauxBrain([fauxText("one two three four five six seven eight nine ten")], {
      chunkSize: 4,
      chunkDelayMs: 10,
    }).stream(model, context, {
      signal: controller.signal,
    });
    let deltas = 0;
    for await (const event of stream) if (event.type === "text_delta" && ++deltas === 2) controller.abort();
    const message = await stream.result();
    expect(message.stopReason).toBe("aborted");
    expect(assistantText(message)).toBe("one two ");
  });
});

describe("faux request recording", () => {
  it("records the deadline, stall timer, headers and stop sequences as asked", async () => {
    const brain = createFauxBrain([fauxText("ok")]);
    await brain
      .stream(
        model,
        { ...context, tools: [{ name: "ls", description: "list", parameters: { type: "object" } }] },
        {
          timeoutMs: 5000,
          stallTimeoutMs: 700,
          headers: { "x-trace": "1" },
          stop: ["END"],
        },
      )
      .result();
    expect(brain.calls[0]).toMatchObject({
      timeoutMs: 5000,
      stallTimeoutMs: 700,
      headers: { "x-trace": "1" },
      stop: ["END"],
    });
    expect(brain.calls[0]!.context.tools).toEqual([
      { name: "ls", description: "list", parameters: { type: "object" } },
    ]);
  });
});
