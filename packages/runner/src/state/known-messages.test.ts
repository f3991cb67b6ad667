import { fauxText } from "@x/brain-faux";
import { MessageSchema, SchemaValidationError, type Message } from "@x/llm-types";
import { afterEach, describe, expect, it, vi } from "vitest";
import { setup } from "../../test/harness";

afterEach(() => vi.restoreAllMocks());

describe("history checks", () => {
  it("a malformed history entry is refused naming its index and field, before any model call", async () => {
    const { runner, brain } = setup([fauxText("x")]);
    const history = [{ role: "user", content: "fine" }, { role: "user" }, { role: "robot", content: "x" }];
    const error = await runner.runTask({ objective: "x", history: history as Message[] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SchemaValidationError);
    expect((error as SchemaValidationError).issues.map((issue) => issue.path)).toContain("history[1].content");
    expect((error as SchemaValidationError).message).toMatch(/^invalid task spec: history\[1\]/);
    await expect(runner.runTask({ objective: "x", history: [null] as never })).rejects.toThrow(
      /invalid task spec: history\[0\]/,
    );
    expect(brain.calls).toHaveLength(0);
  });

  it("checks each outside message once and the runner's own result messages never", async () => {
    const { runner, brain } = setup(() => fauxText("ok"));
    const parse = vi.spyOn(MessageSchema, "safeParse");
    const first = await runner.runTask({ objective: "first" });
    const outside: Message = { role: "user", content: "a note the host wrote" };
    const history: Message[] = [...first.messages, outside];
    await runner.runTask({ objective: "second", history });
    expect(parse.mock.calls.map(([value]) => value)).toEqual([outside]);
    const second = await runner.runTask({ objective: "third", history: [...history, ...first.messages] });
    expect(parse).toHaveBeenCalledTimes(1);
    expect(second.status).toBe("completed");
    expect(brain.calls.at(-1)!.context.messages.length).toBe(history.length + first.messages.length + 1);
  });
});

describe("known-message brand", () => {
  it("is invisible to JSON, structuredClone, spreads and equality, and a copy is checked again", async () => {
    const { runner } = setup(() => fauxText("ok"));
    const first = await runner.runTask({ objective: "first" });
    const [message] = first.messages;
    expect(Object.keys(message!)).toEqual(Object.keys({ ...message }));
    expect(JSON.parse(JSON.stringify(message))).toEqual({ ...message });
    expect(structuredClone(message)).toEqual(message);
    const parse = vi.spyOn(MessageSchema, "safeParse");
    await runner.runTask({ objective: "again", history: [{ ...message! }, structuredClone(first.messages[1]!)] });
    expect(parse).toHaveBeenCalledTimes(2);
  });
});
