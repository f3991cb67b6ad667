import { createFauxBrain, fauxModel, fauxText, fauxToolCall } from "@x/brain-faux";
import { createRunner, defineTool } from "@x/runner";
import { lastAssistantMessageIsCompleteWithApprovalResponses, type UIMessage } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod/v4";
import { TestChat } from "../test/chat";
import { serve } from "../test/loopback";
import { handleChatRequest } from "./chat-route";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A chat route over a real runner whose `write_note` call asks a person; every write is recorded. */
async function chatServer(script: Parameters<typeof createFauxBrain>[0]) {
  const writes: string[] = [];
  const writeNote = defineTool({
    name: "write_note",
    description: "Writes a note",
    input: z.object({ text: z.string() }),
    permission: "ask",
    execute: async ({ text }) => {
      writes.push(text);
      return `written: ${text}`;
    },
  });
  const runner = createRunner({ brains: [createFauxBrain(script)], models: { main: fauxModel({ id: "main" }) } });
  const server = await serve({
    fetch: (request) =>
      handleChatRequest(request, {
        runner,
        task: ({ objective }) => ({ objective, tools: [writeNote] }),
        resume: { tools: [writeNote] },
      }),
  });
  closers.push(server.close);
  return { url: `${server.url}/api/chat`, writes };
}

function toolPart(message: UIMessage | undefined) {
  return message?.parts.find((part) => part.type === "dynamic-tool");
}

async function post(url: string, messages: unknown): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ messages }),
  });
}

describe("handleChatRequest with the AI SDK's own chat (what useChat wraps)", () => {
  it("a parked call answered with addToolApprovalResponse runs exactly once, and the run completes", async () => {
    const { url, writes } = await chatServer([
      fauxToolCall("write_note", { text: "buy milk" }, { id: "w1", text: "I will note it." }),
      fauxText("Noted."),
    ]);
    const chat = new TestChat(url, { sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses });
    await chat.sendMessage({ text: "note: buy milk" });
    await chat.settled();
    const asked = toolPart(chat.messages.at(-1));
    expect(asked).toMatchObject({ state: "approval-requested", input: { text: "buy milk" } });
    expect(writes).toEqual([]);

    await chat.addToolApprovalResponse({ id: (asked as { approval: { id: string } }).approval.id, approved: true });
    await chat.settled();
    expect(chat.error).toBeUndefined();
    expect(writes).toEqual(["buy milk"]);
    const last = chat.messages.at(-1)!;
    expect(chat.messages.filter((m) => m.role === "assistant")).toHaveLength(1);
    expect(toolPart(last)).toMatchObject({ state: "output-available", output: "written: buy milk" });
    expect(last.parts.filter((part) => part.type === "text").map((part) => part.text)).toContain("Noted.");
    expect(last.parts.findLast((part) => part.type === "data-x-result")).toMatchObject({
      data: { status: "completed" },
    });

    // The same approval sent again (a double click, a replayed request) is refused: the call ran once.
    const replay = await post(url, chat.messages.slice(0, -1).concat(withApproval(chat.messages.at(-1)!)));
    expect(replay.status).toBe(403);
    expect(await replay.json()).toMatchObject({ code: "replayed" });
    expect(writes).toEqual(["buy milk"]);
  });

  it("a denied call never runs; its tool part ends output-denied", async () => {
    const { url, writes } = await chatServer([
      fauxToolCall("write_note", { text: "rm -rf" }, { id: "w2" }),
      fauxText("Understood, not writing it."),
    ]);
    const chat = new TestChat(url, { sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses });
    await chat.sendMessage({ text: "write it" });
    await chat.settled();
    const asked = toolPart(chat.messages.at(-1)) as { approval: { id: string } };
    await chat.addToolApprovalResponse({ id: asked.approval.id, approved: false, reason: "no" });
    await chat.settled();
    expect(writes).toEqual([]);
    expect(toolPart(chat.messages.at(-1))).toMatchObject({ state: "output-denied" });
  });

  it("a tampered approval is refused, nothing runs: edited arguments, another call's id, an unknown park", async () => {
    const { url, writes } = await chatServer([fauxToolCall("write_note", { text: "hello" }, { id: "w3" })]);
    const chat = new TestChat(url);
    await chat.sendMessage({ text: "say hello" });
    await chat.settled();
    const asked = chat.messages.at(-1)!;
    const approved = withApproval(asked);

    // The park the client holds, with the call's arguments edited: its signature no longer matches.
    const edited = structuredClone(approved);
    for (const part of edited.parts as { type: string; data?: { parked: { pending: { arguments: object } } } }[])
      if (part.type === "data-x-park") part.data!.parked.pending.arguments = { text: "transfer all funds" };
    const forged = await post(url, [chat.messages[0], edited]);
    expect(forged.status).toBe(403);
    expect(await forged.json()).toMatchObject({ code: "bad_signature" });

    // The approval moved onto another tool call id than the one parked.
    const moved = structuredClone(approved);
    for (const part of moved.parts as { type: string; toolCallId?: string }[])
      if (part.type === "dynamic-tool") part.toolCallId = "w-other";
    const mismatch = await post(url, [chat.messages[0], moved]);
    expect(mismatch.status).toBe(403);
    expect(await mismatch.json()).toMatchObject({ code: "approval_mismatch" });

    // An approval id no park has.
    const unknown = structuredClone(approved);
    for (const part of unknown.parts as { type: string; approval?: { id: string } }[])
      if (part.type === "dynamic-tool") part.approval!.id = "0123456789abcdef-unknown";
    const missing = await post(url, [chat.messages[0], unknown]);
    expect(missing.status).toBe(403);
    expect(await missing.json()).toMatchObject({ code: "park_missing" });
    expect(writes).toEqual([]);
  });
});

/** The assistant message as `addToolApprovalResponse({ approved: true })` leaves it. */
function withApproval(message: UIMessage): UIMessage {
  const copy = structuredClone(message);
  for (const part of copy.parts as { type: string; state?: string; approval?: { id: string; approved?: boolean } }[])
    if (part.type === "dynamic-tool" && part.approval) {
      part.state = "approval-responded";
      part.approval.approved = true;
    }
  return copy;
}

describe("handleChatRequest with parks kept on the server", () => {
  it("no park reaches the browser; the approval finds the server's copy and runs once", async () => {
    const writes: string[] = [];
    const writeNote = defineTool({
      name: "write_note",
      description: "Writes a note",
      input: z.object({ text: z.string() }),
      permission: "ask",
      execute: async ({ text }) => {
        writes.push(text);
        return `written: ${text}`;
      },
    });
    const runner = createRunner({
      brains: [createFauxBrain([fauxToolCall("write_note", { text: "kept" }, { id: "k1" }), fauxText("Kept.")])],
      models: { main: fauxModel({ id: "main" }) },
    });
    const kept = new Map<string, unknown>();
    const server = await serve({
      fetch: (request) =>
        handleChatRequest(request, {
          runner,
          task: ({ objective }) => ({ objective, tools: [writeNote] }),
          resume: { tools: [writeNote] },
          onParked: (parked) => void kept.set(parked.parkId, parked),
          parks: async (parkId) => kept.get(parkId),
        }),
    });
    closers.push(server.close);
    const chat = new TestChat(`${server.url}/api/chat`, {
      sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
    });
    await chat.sendMessage({ text: "keep it" });
    await chat.settled();
    const asked = chat.messages.at(-1)!;
    expect(asked.parts.some((part) => part.type === "data-x-park")).toBe(false);
    expect(kept.size).toBe(1);
    await chat.addToolApprovalResponse({
      id: (toolPart(asked) as { approval: { id: string } }).approval.id,
      approved: true,
    });
    await chat.settled();
    expect(writes).toEqual(["kept"]);
    expect(toolPart(chat.messages.at(-1))).toMatchObject({ state: "output-available" });
  });
});
