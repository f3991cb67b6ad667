import { createFauxBrain, fauxModel, fauxText, fauxToolCall } from "@x/brain-faux";
import { createRunner, defineTool, ParkedRunError } from "@x/runner";
import { describe, expect, it } from "vitest";
import { z } from "zod/v4";
import { ApprovalError, parseApprovalAnswer, resumeApproval } from "./approval";

describe("an approval from any client", () => {
  it("a body that is not an approval is refused with a typed error", () => {
    expect(parseApprovalAnswer({ approvalId: "p1", approved: true, reason: "ok" })).toEqual({
      approvalId: "p1",
      approved: true,
      reason: "ok",
    });
    for (const body of [{}, { approvalId: "", approved: true }, { approvalId: "p", approved: "yes" }, "approve"]) {
      expect(() => parseApprovalAnswer(body)).toThrow(ApprovalError);
    }
    expect(() => parseApprovalAnswer({ approvalId: "p", approved: true, extra: 1 })).toThrow(/not an approval/);
  });

  it("resumeApproval decides through the runner: once, and a second time is refused as replayed", async () => {
    let runs = 0;
    const deploy = defineTool({
      name: "deploy",
      description: "Deploys",
      input: z.object({ service: z.string() }),
      permission: "ask",
      execute: async () => `deployed #${++runs}`,
    });
    const runner = createRunner({
      brains: [createFauxBrain([fauxToolCall("deploy", { service: "api" }, { id: "d1" }), fauxText("Deployed.")])],
      models: { main: fauxModel({ id: "main" }) },
    });
    const parked = (await runner.runTask({ objective: "deploy", tools: [deploy] })).parked!;
    const answer = parseApprovalAnswer({ approvalId: parked.parkId, approved: true, toolCallId: "d1" });
    const result = await resumeApproval(runner, answer, { parked }, { tools: [deploy] });
    expect(result.status).toBe("completed");
    expect(runs).toBe(1);
    const again = resumeApproval(runner, answer, { parked }, { tools: [deploy] });
    await expect(again).rejects.toThrow(ParkedRunError);
    await expect(again).rejects.toMatchObject({ code: "replayed" });
    expect(runs).toBe(1);
  });
});
