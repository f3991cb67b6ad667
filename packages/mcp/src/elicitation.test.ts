import { fauxText, fauxToolCall } from "@x/brain-faux";
import { afterEach, describe, expect, it } from "vitest";
import { connectMcp, type McpElicitationRequest, type Elicitor, type McpToolset } from "./index";
import { autoRunner, resultText, toolResults } from "../test/harness";
import { everythingServer } from "../test/servers";

const TOOL = "everything__trigger-elicitation-request";
let toolset: McpToolset | undefined;
afterEach(async () => {
  await toolset?.close();
  toolset = undefined;
});

/** Runs the real server-everything's elicitation tool once and returns what the model was shown. */
async function elicitOnce(elicit?: Elicitor) {
  toolset = await connectMcp([everythingServer({ policy: { tools: { "trigger-elicitation-request": "allow" } } })], {
    ...(elicit ? { elicit } : {}),
  });
  const { runner, brain } = autoRunner([fauxToolCall(TOOL, {}), fauxText("done")]);
  const result = await runner.runTask({ objective: "ask me", tools: toolset.tools() });
  return { text: resultText(toolResults(result.messages)[0]!), runId: result.runId, brain };
}

describe("elicitation from a real server (server-everything over stdio) during a run", () => {
  it("goes to the host's person with its call; their answer, defaults filled in, reaches the server", async () => {
    const asked: McpElicitationRequest[] = [];
    const { text } = await elicitOnce((request) => {
      asked.push(request);
      return Promise.resolve({ action: "accept", content: { name: "Ada Lovelace", email: "ada@example.com" } });
    });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({
      server: "everything",
      message: "Please provide inputs for the following fields:",
      call: { toolName: TOOL },
    });
    expect(text).toContain("Ada Lovelace");
    expect(text).toContain("It was a dark and stormy night.");
  });

  it("no host `elicit`: it goes to the run, no approver ⇒ the run parks on it, the model never answers", async () => {
    toolset = await connectMcp([everythingServer({ policy: { tools: { "trigger-elicitation-request": "allow" } } })]);
    const { runner, brain } = autoRunner([fauxToolCall(TOOL, {}), fauxText("done")]);
    const result = await runner.runTask({ objective: "ask me", tools: toolset.tools() });
    expect(result.status).toBe("parked");
    expect(result.parked!.pending).toMatchObject({ toolName: TOOL, kind: "elicitation" });
    expect(result.parked!.pending.elicitation!.message).toBe("Please provide inputs for the following fields:");
    expect(brain.calls).toHaveLength(1);
  });

  it("nobody available now, or an answer off the server's schema, is a decline too", async () => {
    expect((await elicitOnce(() => Promise.resolve("unavailable"))).text.toLowerCase()).toContain("decline");
    await toolset?.close();
    const offSchema = await elicitOnce(() => Promise.resolve({ action: "accept", content: { integer: 500 } }));
    expect(offSchema.text.toLowerCase()).toContain("decline");
  });
});
