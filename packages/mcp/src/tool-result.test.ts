import { describe, expect, it } from "vitest";
import { toToolOutput } from "./tool-result";

const origin = { server: "s", tool: "t" };

describe("toToolOutput", () => {
  it("keeps text and images, turns links and text resources into text, withholds audio and blobs", () => {
    const output = toToolOutput(
      {
        content: [
          { type: "text", text: "hi" },
          { type: "image", data: "AAAA", mimeType: "image/png" },
          { type: "resource_link", uri: "file:///a", name: "a" },
          { type: "resource", resource: { uri: "file:///b", text: "inside b" } },
          { type: "resource", resource: { uri: "file:///c", blob: "AAAA" } },
          { type: "audio", data: "AAAA", mimeType: "audio/wav" },
        ],
      },
      origin,
    );
    expect(output.content).toEqual([
      { type: "text", text: "hi" },
      { type: "image", data: "AAAA", mimeType: "image/png" },
      { type: "text", text: '[resource file:///a "a"]' },
      { type: "text", text: "inside b" },
      { type: "text", text: "[binary resource file:///c withheld from the model]" },
      { type: "text", text: "[audio (audio/wav) withheld from the model]" },
    ]);
    expect(output.isError).toBe(false);
    expect((output.details as { withheld: unknown[] }).withheld).toHaveLength(2);
  });

  it("structured content alone reaches the model as JSON; isError stays an error", () => {
    const output = toToolOutput({ content: [], structuredContent: { n: 1 }, isError: true }, origin);
    expect(output).toEqual({
      content: [{ type: "text", text: '{"n":1}' }],
      isError: true,
      details: { server: "s", tool: "t", structuredContent: { n: 1 } },
    });
  });
});
