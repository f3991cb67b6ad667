import { afterEach, describe, expect, it } from "vitest";
import { startAnthropicMockServer, type AnthropicMockServer } from "@x/brain-anthropic/testing";

let server: AnthropicMockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("startAnthropicMockServer", () => {
  it("speaks the documented Messages stream (named events) to a plain HTTP client", async () => {
    server = await startAnthropicMockServer([
      {
        blocks: [
          { type: "thinking", thinking: "hmm", signature: "sig" },
          { type: "text", text: "hi" },
        ],
        usage: { input: 7, output: 3, cacheRead: 2, cacheWrite: 1 },
      },
    ]);
    const response = await fetch(`${server.baseUrl}/v1/messages`, {
      method: "POST",
      body: JSON.stringify({ model: "claude-x", stream: true, max_tokens: 10, messages: [] }),
    });
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const events = (await response.text())
      .split("\n\n")
      .filter(Boolean)
      .map((raw) => {
        const [eventLine, dataLine] = raw.split("\n");
        return {
          event: eventLine!.slice("event: ".length),
          data: JSON.parse(dataLine!.slice("data: ".length)) as Record<string, unknown> & {
            type: string;
            message?: unknown;
            delta?: unknown;
          },
        };
      });
    expect(events.every((e) => e.event === e.data.type)).toBe(true);
    expect(events.map((e) => e.event)).toEqual([
      "message_start",
      "ping",
      "content_block_start",
      "content_block_delta",
      "content_block_delta",
      "content_block_stop",
      "content_block_start",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    expect(events[0]!.data.message).toMatchObject({
      model: "claude-x",
      usage: { input_tokens: 7, cache_read_input_tokens: 2, cache_creation_input_tokens: 1 },
    });
    expect(events[4]!.data.delta).toEqual({ type: "signature_delta", signature: "sig" });
    expect(events[9]!.data).toMatchObject({ delta: { stop_reason: "end_turn" }, usage: { output_tokens: 3 } });
  });

  it("answers errors in the API's error shape", async () => {
    server = await startAnthropicMockServer([
      { kind: "error", error: { status: 529, type: "overloaded_error", message: "Overloaded" } },
    ]);
    const response = await fetch(`${server.baseUrl}/v1/messages`, { method: "POST", body: "{}" });
    expect(response.status).toBe(529);
    expect(await response.json()).toEqual({
      type: "error",
      error: { type: "overloaded_error", message: "Overloaded" },
      request_id: "req_mock",
    });
  });
});
