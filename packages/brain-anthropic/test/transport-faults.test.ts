import { defineModel, type AssistantMessage, type Model } from "@x/llm-types";
import { afterEach, describe, expect, it } from "vitest";
import { createAnthropicBrain } from "../src/index";
import { startAnthropicMockServer, type AnthropicMockServer } from "../src/testing";

let server: AnthropicMockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const modelAt = (baseUrl: string): Model =>
  defineModel({
    id: "claude-haiku-4-5",
    api: "anthropic-messages",
    provider: "anthropic",
    baseUrl,
    contextWindow: 200_000,
    maxTokens: 4096,
  });

describe("a reused keep-alive socket reset after the server read the request (#33 item 3, #35 item 6)", () => {
  it("every request the server saw is a call the caller saw", async () => {
    // Four answers wanted; the third request is read by the server and its reused socket then reset.
    server = await startAnthropicMockServer((_request, index) =>
      index === 2 ? { kind: "drop" } : { blocks: [{ type: "text", text: `answer ${index}` }] },
    );
    const brain = createAnthropicBrain({ apiKey: "k" });
    const messages: AssistantMessage[] = [];
    // Asks again after a `network` failure, as the runner does; each message is one counted call.
    while (messages.filter((message) => message.stopReason !== "error").length < 4) {
      messages.push(
        await brain.stream(modelAt(server.baseUrl), { messages: [{ role: "user", content: "hi" }] }).result(),
      );
    }
    // Before: the transport resent the reset request unseen — 5 requests on the wire, 4 calls counted.
    expect(server.requests).toHaveLength(5);
    expect(messages).toHaveLength(5);
    const failed = messages.filter((message) => message.stopReason === "error");
    expect(failed).toMatchObject([{ errorKind: "network", content: [], usage: { estimated: true } }]);
    expect(failed[0]!.responseId).toBeUndefined();
  });
});
