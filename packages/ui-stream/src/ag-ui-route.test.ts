import { HttpAgent } from "@ag-ui/client";
import type { BaseEvent, Interrupt } from "@ag-ui/core";
import { createFauxBrain, fauxModel, fauxText, fauxToolCall } from "@x/brain-faux";
import { createRunner, defineTool } from "@x/runner";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod/v4";
import { serve } from "../test/loopback";
import { handleAgUiRequest } from "./ag-ui-route";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function agUiServer(script: Parameters<typeof createFauxBrain>[0]) {
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
      handleAgUiRequest(request, {
        runner,
        task: ({ objective }) => ({ objective, tools: [writeNote] }),
        resume: { tools: [writeNote] },
      }),
  });
  closers.push(server.close);
  return { url: server.url, writes };
}

/** Runs the AG-UI client's own agent once, recording every event it verified and applied. */
async function run(agent: HttpAgent, parameters: Parameters<HttpAgent["runAgent"]>[0] = {}) {
  const events: BaseEvent[] = [];
  const interrupts: Interrupt[] = [];
  const customs: { name: string; value: unknown }[] = [];
  const result = await agent.runAgent(parameters, {
    onEvent: ({ event }) => void events.push(event),
    onCustomEvent: ({ event }) => void customs.push({ name: event.name, value: event.value }),
    onRunFinishedEvent: (params) => {
      const outcome = (params as { outcome?: unknown }).outcome;
      if (outcome === "interrupt") interrupts.push(...(params as unknown as { interrupts: Interrupt[] }).interrupts);
    },
  });
  return { result, events, interrupts, customs };
}

describe("AG-UI events, read by @ag-ui/client's HttpAgent", () => {
  it("a streamed run becomes the client's messages: assistant text and the tool call with its result", async () => {
    const { url, writes } = await agUiServer([
      fauxToolCall("write_note", { text: "hi" }, { id: "t1", text: "Writing." }),
      fauxText("Done."),
    ]);
    const agent = new HttpAgent({ url, threadId: "thread-1" });
    agent.addMessage({ id: "u1", role: "user", content: "note hi" });
    const first = await run(agent);
    expect(first.interrupts).toHaveLength(1);
    const [interrupt] = first.interrupts;
    expect(interrupt).toMatchObject({ reason: "tool_approval", toolCallId: "t1" });
    expect(interrupt!.metadata?.["x.call"]).toMatchObject({ name: "write_note", arguments: { text: "hi" } });
    const assistant = agent.messages.find((m) => m.role === "assistant") as { toolCalls?: { id: string }[] };
    expect(assistant.toolCalls?.map((call) => call.id)).toEqual(["t1"]);
    expect(agent.messages.some((m) => m.role === "assistant" && m.content === "Writing.")).toBe(true);
    expect(writes).toEqual([]);

    const second = await run(agent, {
      resume: [
        {
          interruptId: interrupt!.id,
          status: "resolved",
          payload: { approved: true, parked: interrupt!.metadata?.["x.park"] },
        },
      ],
    });
    expect(writes).toEqual(["hi"]);
    expect(second.interrupts).toEqual([]);
    expect(agent.messages.some((m) => m.role === "tool" && m.content === "written: hi")).toBe(true);
    expect(agent.messages.some((m) => m.role === "assistant" && m.content === "Done.")).toBe(true);
    expect(second.customs.some((c) => c.name === "x.cost")).toBe(true);
  });

  it("a resume carrying an edited park is refused by the runner's signature check, and nothing runs", async () => {
    const { url, writes } = await agUiServer([fauxToolCall("write_note", { text: "hi" }, { id: "t2" })]);
    const agent = new HttpAgent({ url, threadId: "thread-2" });
    agent.addMessage({ id: "u1", role: "user", content: "note hi" });
    const [interrupt] = (await run(agent)).interrupts;
    const parked = structuredClone(interrupt!.metadata?.["x.park"]) as { pending: { arguments: object } };
    parked.pending.arguments = { text: "something else" };
    await expect(
      run(agent, { resume: [{ interruptId: interrupt!.id, status: "resolved", payload: { approved: true, parked } }] }),
    ).rejects.toThrow(/403/);
    expect(writes).toEqual([]);
  });

  it("a cancelled interrupt denies the call: nothing runs and the run ends", async () => {
    const { url, writes } = await agUiServer([
      fauxToolCall("write_note", { text: "no" }, { id: "t4" }),
      fauxText("Not written."),
    ]);
    const agent = new HttpAgent({ url, threadId: "thread-4" });
    agent.addMessage({ id: "u1", role: "user", content: "note no" });
    const [interrupt] = (await run(agent)).interrupts;
    const second = await run(agent, {
      resume: [
        {
          interruptId: interrupt!.id,
          status: "cancelled",
          payload: { approved: false, parked: interrupt!.metadata?.["x.park"] },
        },
      ],
    });
    expect(writes).toEqual([]);
    expect(second.customs).toContainEqual({ name: "x.approval", value: expect.objectContaining({ decision: "deny" }) });
    expect(agent.messages.some((m) => m.role === "assistant" && m.content === "Not written.")).toBe(true);
  });
});
