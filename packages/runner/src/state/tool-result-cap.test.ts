import { describe, expect, it } from "vitest";
import { capText, capToolResult } from "./tool-result-cap";

describe("capText", () => {
  it("keeps a text that fits; cuts a longer one to the limit, head and tail around a marker", () => {
    expect(capText("short", 200)).toBe("short");
    const text = `${"a".repeat(600)}${"b".repeat(600)}`;
    const cut = capText(text, 400);
    expect(cut.length).toBeLessThanOrEqual(400);
    expect(cut.startsWith("aaa")).toBe(true);
    expect(cut.endsWith("bbb")).toBe(true);
    const removed = Number(/\[… (\d+) characters cut/.exec(cut)![1]);
    expect(cut.length - cut.match(/\n\[….*…\]\n/)![0].length + removed).toBe(text.length);
  });

  it("cuts only text blocks of a tool result, and returns the same message when nothing is long", () => {
    const short = {
      role: "toolResult" as const,
      toolCallId: "c",
      toolName: "t",
      content: [{ type: "text" as const, text: "ok" }],
      isError: false,
    };
    expect(capToolResult(short, 200)).toBe(short);
    const image = { type: "image" as const, data: "A".repeat(5000), mimeType: "image/png" };
    const long = { ...short, content: [{ type: "text" as const, text: "x".repeat(5000) }, image] };
    const capped = capToolResult(long, 300);
    expect((capped.content[0] as { text: string }).text.length).toBeLessThanOrEqual(300);
    expect(capped.content[1]).toBe(image);
    expect((long.content[0] as { text: string }).text.length).toBe(5000);
  });
});
