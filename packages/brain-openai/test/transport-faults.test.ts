import { defineModel, type AssistantMessage, type Brain, type Model, type KnownApi } from "@x/llm-types";
import { afterEach, describe, expect, it } from "vitest";
import { createOpenAIBrain, createOpenAIResponsesBrain } from "../src/index";
import {
  startOpenAIMockServer,
  startResponsesMockServer,
  type OpenAIMockScript,
  type OpenAIMockServer,
} from "../src/testing";

let server: OpenAIMockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const modelAt = (baseUrl: string, api: KnownApi): Model =>
  defineModel({ id: "gpt-4.1-mini", api, provider: "openai", baseUrl, contextWindow: 128_000, maxTokens: 4096 });

/** Four answers wanted; the third request is read by the server and its reused socket then reset. */
const script: OpenAIMockScript = (_request, index) => (index === 2 ? { kind: "drop" } : { text: `answer ${index}` });

/**
 * Asks until `wanted` answers came, retrying a `network` failure as the runner does, and returns
 * every message a call returned: what the runner counts as `stats.modelCalls`.
 */
async function answers(brain: Brain, model: Model, wanted: number): Promise<AssistantMessage[]> {
  const messages: AssistantMessage[] = [];
  let answered = 0;
  while (answered < wanted) {
    const message = await brain.stream(model, { messages: [{ role: "user", content: "hi" }] }).result();
    messages.push(message);
    if (message.stopReason !== "error") answered++;
    else expect(message.errorKind).toBe("network");
  }
  return messages;
}

describe("a reused keep-alive socket reset after the server read the request (#33 item 3, #35 item 6)", () => {
  it.each([
    ["Chat Completions", createOpenAIBrain, startOpenAIMockServer, "openai-completions"],
    ["Responses", createOpenAIResponsesBrain, startResponsesMockServer, "openai-responses"],
  ] as const)("%s: every request the server saw is a call the caller saw", async (_name, create, start, api) => {
    server = await start(script);
    const messages = await answers(create({ apiKey: "k" }), modelAt(server.baseUrl, api), 4);
    // Before: the transport resent the reset request unseen — 5 requests on the wire, 4 calls counted.
    expect(server.requests).toHaveLength(5);
    expect(messages).toHaveLength(5);
    const failed = messages.filter((message) => message.stopReason === "error");
    expect(failed).toHaveLength(1);
    // No reply came: an estimate of the prompt only, which the runner keeps apart as unbilled.
    expect(failed[0]).toMatchObject({ content: [], usage: { estimated: true } });
    expect(failed[0]!.responseId).toBeUndefined();
  });
});
