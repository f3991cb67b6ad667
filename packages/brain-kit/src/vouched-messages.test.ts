import { defineModel, type Context, type Message, customApi } from "@x/llm-types";
import { describe, expect, it } from "vitest";
import { startTurn } from "./start-turn";
import { vouchMessages } from "./vouched-messages";

const model = defineModel({
  id: "m-1",
  api: customApi("test-api"),
  provider: "test",
  baseUrl: "http://127.0.0.1:1",
  contextWindow: 1000,
  maxTokens: 100,
});

/** Messages whose entries throw when read: a walk over them is seen at once. */
function untouchable(count: number): Message[] {
  const messages: Message[] = [];
  for (let i = 0; i < count; i++)
    Object.defineProperty(messages, i, {
      enumerable: true,
      get: () => {
        throw new Error(`entry ${i} was read`);
      },
    });
  return messages;
}

async function startWith(context: Context): Promise<{ ran: boolean; errorKind: string | undefined }> {
  let ran = false;
  const stream = startTurn(model, context, undefined, { api: "test-api" }, async (turn) => {
    ran = true;
    turn.textDelta("ok");
    turn.finish("stop");
  });
  const message = await stream.result();
  return { ran, errorKind: message.errorKind };
}

describe("vouchMessages", () => {
  it("a vouched array's entries are not walked by the call's shape check", async () => {
    const messages = untouchable(3);
    vouchMessages(messages);
    expect(await startWith({ messages })).toEqual({ ran: true, errorKind: undefined });
  });

  it("an array not vouched for is checked: a malformed entry is bad_request and the brain never runs", async () => {
    const messages = [{ role: "user", content: "hi" }, { role: "robot" }] as Message[];
    expect(await startWith({ messages })).toEqual({ ran: false, errorKind: "bad_request" });
    expect(await startWith({ messages: [...messages] })).toEqual({ ran: false, errorKind: "bad_request" });
  });

  it("the vouch is for that array only: a copy of a vouched array is checked again", async () => {
    const messages = [{ role: "robot" }] as unknown as Message[];
    vouchMessages(messages);
    expect((await startWith({ messages })).ran).toBe(true);
    expect(await startWith({ messages: messages.slice() })).toEqual({ ran: false, errorKind: "bad_request" });
  });
});
