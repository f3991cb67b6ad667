import { createFauxBrain, fauxModel, fauxText, fauxToolCall } from "@x/brain-faux";
import { createRunner, defineSubRunTool, defineTool } from "@x/runner";
import { readUIMessageStream, type UIMessage, type UIMessageChunk } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod/v4";
import { toUIMessageChunks } from "./ui-message-stream";
import type { RunEvent } from "./run-types";

const shell = defineTool({
  name: "shell",
  description: "Runs a command",
  input: z.object({ command: z.string() }),
  execute: async ({ command }) => `ran ${command}`,
});

/** Reads a run's chunks with the AI SDK's own reader, into the message it ends with. */
async function read(events: AsyncIterable<RunEvent>): Promise<UIMessage> {
  const chunks = toUIMessageChunks(events);
  const stream = new ReadableStream<UIMessageChunk>({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
  });
  let message: UIMessage | undefined;
  for await (const next of readUIMessageStream({ stream })) message = next;
  return message!;
}

describe("typed data parts, as the AI SDK's reader keeps them", () => {
  it("auto mode's verdicts arrive as data-x-verdict parts with their reason and classifier", async () => {
    const runner = createRunner({
      // One scripted brain answers both seats, in call order: main, classifier, main, classifier, main.
      brains: [
        createFauxBrain([
          fauxToolCall("shell", { command: "ls" }, { id: "c1" }),
          fauxText("<block>no</block>"),
          fauxToolCall("shell", { command: "rm -rf /" }, { id: "c2" }),
          fauxText("<block>yes</block><reason>deletes everything</reason>"),
          fauxText("Listed; the other one was refused."),
        ]),
      ],
      models: { main: fauxModel({ id: "main" }), cls: fauxModel({ id: "cls" }) },
      roles: { default: "main", classifier: "cls" },
    });
    const message = await read(
      runner.streamTask({ objective: "list, then clean up", tools: [shell], defaultPermission: "auto" }),
    );
    const verdicts = message.parts.flatMap((part) => (part.type === "data-x-verdict" ? [part.data] : []));
    expect(verdicts).toEqual([
      expect.objectContaining({ toolCallId: "c1", toolName: "shell", verdict: "allow", model: "cls" }),
      expect.objectContaining({ toolCallId: "c2", verdict: "block", reason: "deletes everything" }),
    ]);
    expect(message.parts.find((p) => p.type === "dynamic-tool" && p.toolCallId === "c2")).toMatchObject({
      state: "output-error",
    });
  });

  it("a sub-run's progress is one data-x-sub-run part per child, updated to its end", async () => {
    const helper = defineSubRunTool({
      name: "helper",
      description: "Hands a question to a helper",
      input: z.object({ question: z.string() }),
      task: ({ question }) => ({ objective: question, tools: [shell] }),
    });
    const runner = createRunner({
      brains: [
        createFauxBrain([
          fauxToolCall("helper", { question: "what is here?" }, { id: "h1" }),
          fauxToolCall("shell", { command: "ls" }, { id: "inner" }),
          fauxText("two files"),
          fauxText("The helper says: two files."),
        ]),
      ],
      models: { main: fauxModel({ id: "main" }) },
    });
    const message = await read(runner.streamTask({ objective: "ask the helper", tools: [helper] }));
    const subRuns = message.parts.filter((part) => part.type === "data-x-sub-run");
    expect(subRuns).toHaveLength(1);
    expect(subRuns[0]).toMatchObject({
      data: {
        path: [{ toolName: "helper", toolCallId: "h1" }],
        event: "run_end",
        status: "completed",
        text: "two files",
      },
    });
    // The child's own calls stay in its part, not among the parent's tool parts.
    expect(
      message.parts.filter((p) => p.type === "dynamic-tool").map((p) => (p as { toolCallId: string }).toolCallId),
    ).toEqual(["h1"]);
  });
});
