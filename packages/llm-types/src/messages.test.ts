import { describe, expect, it } from "vitest";
import {
  AssistantMessageSchema,
  assistantText,
  assistantToolCalls,
  MessageSchema,
  type AssistantMessage,
} from "./messages";
import { parseWith, SchemaValidationError } from "./parse";
import { ToolSpecSchema } from "./tool";
import { emptyUsage } from "./usage";

const turn: AssistantMessage = {
  role: "assistant",
  content: [
    { type: "thinking", thinking: "plan", signature: "sig" },
    { type: "text", text: "Hello " },
    { type: "toolCall", id: "c1", name: "read", arguments: { path: "a" } },
    { type: "text", text: "world" },
  ],
  api: "faux",
  provider: "faux",
  model: "m",
  usage: emptyUsage(),
  stopReason: "toolUse",
  timestamp: 1,
};

describe("messages", () => {
  it("accepts a well-formed assistant turn and reads its text and calls", () => {
    expect(AssistantMessageSchema.parse(turn)).toEqual(turn);
    expect(assistantText(turn)).toBe("Hello world");
    expect(assistantToolCalls(turn).map((c) => c.id)).toEqual(["c1"]);
  });

  it.each([
    ["an unknown stop reason", { stopReason: "finished" }, "stopReason"],
    ["an error kind outside the closed set", { errorKind: "oops" }, "errorKind"],
    ["a tool call with no id", { content: [{ type: "toolCall", id: "", name: "x", arguments: {} }] }, "content[0].id"],
    [
      "a tool call whose arguments are not an object",
      { content: [{ type: "toolCall", id: "a", name: "x", arguments: "{}" }] },
      "content[0].arguments",
    ],
    ["an unknown block type", { content: [{ type: "audio" }] }, "content[0].type"],
  ])("rejects %s, naming the field", (_label, patch, field) => {
    try {
      parseWith(MessageSchema, { ...turn, ...patch }, "message");
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(SchemaValidationError);
      expect((e as SchemaValidationError).issues.map((i) => i.path)).toContain(field);
    }
  });

  it("rejects a tool result without its call id", () => {
    const r = MessageSchema.safeParse({
      role: "toolResult",
      toolCallId: "",
      toolName: "t",
      content: [],
      isError: false,
    });
    expect(r.success).toBe(false);
  });

  it("accepts user messages as a string or blocks, and rejects a tool call block from the user", () => {
    expect(MessageSchema.safeParse({ role: "user", content: "hi" }).success).toBe(true);
    expect(
      MessageSchema.safeParse({ role: "user", content: [{ type: "image", data: "AA==", mimeType: "image/png" }] })
        .success,
    ).toBe(true);
    expect(
      MessageSchema.safeParse({ role: "user", content: [{ type: "toolCall", id: "a", name: "b", arguments: {} }] })
        .success,
    ).toBe(false);
  });

  it("validates tool names on the wire", () => {
    expect(ToolSpecSchema.safeParse({ name: "read_file", description: "", parameters: {} }).success).toBe(true);
    expect(ToolSpecSchema.safeParse({ name: "read file", description: "", parameters: {} }).success).toBe(false);
  });
});
