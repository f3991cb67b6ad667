import { createFauxBrain, fauxText, fauxToolCall } from "@x/brain-faux";
import { contextSize, estimateContextTokens } from "@x/brain-kit";
import { emptyUsage, MessageSchema, SchemaValidationError, type AssistantMessage, type Message } from "@x/llm-types";
import { afterEach, describe, expect, it, vi } from "vitest";
import { resolveCompaction } from "../vocabulary/compaction-options";
import { historyView } from "./history-view";
import { createRunner } from "../entry/runner";
import { main, recorder, setup } from "../../test/harness";

afterEach(() => vi.restoreAllMocks());

const user = (text: string): Message => ({ role: "user", content: text });
const answer = (text: string, input: number): AssistantMessage => ({
  role: "assistant",
  content: [{ type: "text", text }],
  api: "faux",
  provider: "faux",
  model: "main",
  usage: { ...emptyUsage(), input },
  stopReason: "stop",
  timestamp: 1,
});

describe("history view", () => {
  it("a history array the host changes in place between runs is read again, not served from the memo", async () => {
    const { runner, brain } = setup(() => fauxText("ok"));
    const history: Message[] = [user("first question"), answer("first answer", 10)];
    await runner.runTask({ objective: "one", history });
    history[0] = user("the host rewrote this question");
    await runner.runTask({ objective: "two", history });
    expect(brain.calls.at(-1)!.context.messages[0]).toMatchObject({ content: "the host rewrote this question" });
    history.splice(0, 2, user("only this"));
    await runner.runTask({ objective: "three", history });
    expect(brain.calls.at(-1)!.context.messages.map((m) => m.role)).toEqual(["user", "user"]);
  });

  it("an entry replaced or appended after a run is checked again: a malformed one is refused by index", async () => {
    const { runner, brain } = setup(() => fauxText("ok"));
    const history: Message[] = [user("fine"), answer("fine", 10)];
    await runner.runTask({ objective: "one", history });
    const calls = brain.calls.length;
    history[1] = { role: "assistant" } as Message;
    const replaced = await runner.runTask({ objective: "two", history }).catch((e: unknown) => e);
    expect(replaced).toBeInstanceOf(SchemaValidationError);
    expect((replaced as Error).message).toMatch(/history\[1\]/);
    history[1] = answer("fine again", 10);
    history.push({ role: "toolResult" } as Message);
    await expect(runner.runTask({ objective: "three", history })).rejects.toThrow(/history\[2\]/);
    expect(brain.calls).toHaveLength(calls);
  });

  it("checks an unchanged history once across runs, and only the appended entries after that", async () => {
    const { runner } = setup(() => fauxText("ok"));
    const history: Message[] = [user("a"), answer("b", 10)];
    const parse = vi.spyOn(MessageSchema, "safeParse");
    await runner.runTask({ objective: "one", history });
    await runner.runTask({ objective: "two", history });
    expect(parse).toHaveBeenCalledTimes(2);
    history.push(user("c"));
    await runner.runTask({ objective: "three", history });
    expect(parse.mock.calls.map(([value]) => value)).toEqual([history[0], history[1], history[2]]);
  });

  it("a run keeps the history it started with while the host appends and runs again on the same array", async () => {
    const brain = createFauxBrain([
      fauxToolCall("echo", { text: "x" }),
      fauxText("second run done"),
      fauxText("first run done"),
    ]);
    const { tool } = recorder();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const runner = createRunner({ brains: [brain], models: { main }, tools: [tool] });
    const history: Message[] = [user("shared question"), answer("shared answer", 10)];
    const first = runner.runTask({
      objective: "first",
      history,
      onToolResult: async () => {
        history.push(user("appended by the host"), answer("while the first ran", 12));
        await runner.runTask({ objective: "second", history });
        release();
      },
    });
    await gate;
    const result = await first;
    expect(result.output).toBe("first run done");
    const firstRunCalls = brain.calls.filter((call) => call.context.messages.some((m) => m.content === "first"));
    expect(firstRunCalls).toHaveLength(2);
    for (const call of firstRunCalls)
      expect(call.context.messages.slice(0, 3).map((m) => m.content)).toContain("first");
    for (const call of firstRunCalls) expect(call.context.messages).toHaveLength(call === firstRunCalls[0] ? 3 : 5);
  });

  it("its sizes add up to the estimate of the whole history, from the last reported input on", () => {
    const options = resolveCompaction({ toolResultMaxChars: 200 });
    const history: Message[] = [
      user("question one"),
      answer("answer one", 100),
      {
        role: "toolResult",
        toolCallId: "c1",
        toolName: "read",
        content: [{ type: "text", text: "x".repeat(2000) }],
        isError: false,
        timestamp: 1,
      },
      answer("not reported", 0),
      user("question two"),
    ];
    const view = historyView(history, options);
    expect(view.view[2]).not.toBe(history[2]);
    expect(view.size).toEqual(contextSize({ messages: [...view.view] }));
    expect(view.lastReport).toBe(1);
    expect(view.sinceReport).toEqual(contextSize({ messages: view.view.slice(1) }));
    history.push(answer("answer two", 300), user("question three"));
    const longer = historyView(history, options);
    expect(longer.lastReport).toBe(5);
    expect(longer.sinceReport).toEqual(contextSize({ messages: longer.view.slice(5) }));
    expect(estimateContextTokens({ messages: [...longer.view] })).toBe(
      Math.ceil(longer.size.chars / 4) + longer.size.images * 1000,
    );
    expect(view.view).toHaveLength(5);
  });
});
