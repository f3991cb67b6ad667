import { fauxText, fauxToolCall } from "@x/brain-faux";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, type ToolContext } from "../vocabulary/define-tool";
import { ElicitationError, type ElicitationForm, type ElicitationResult } from "../vocabulary/elicitation";
import { PARKED_RUN_VERSION, ParkedRunSchema, type ParkedRun } from "../vocabulary/park-schema";
import type { ApprovalRequest } from "../vocabulary/types";
import type { ResumeDecision } from "../vocabulary/runner-api";
import { createMemoryParkLedger } from "../effects/park-ledgers";
import { setup, texts } from "../../test/harness";
import { delegate, treeSetup } from "../../test/sub-run-harness";
import { pendingApproval } from "../loop/sub-run-park";
import v1 from "../../test/fixtures/parked-run-v1.json" with { type: "json" };

const KEY = "a-test-key-of-enough-length-000";
const FORM: ElicitationForm = {
  type: "object",
  properties: {
    seat: { type: "string", enum: ["aisle", "window"] },
    bags: { type: "integer", minimum: 0, maximum: 3, default: 0 },
  },
  required: ["seat"],
};

/** A tool that asks where to sit, then books — counting how often it starts and how often it books. */
function bookingTool(options: { readOnly?: boolean; questions?: number } = {}) {
  const seen = { starts: 0, booked: [] as unknown[], keys: [] as string[], results: [] as ElicitationResult[] };
  const tool = defineTool({
    name: "book",
    description: "books a flight, asking the traveller where to sit",
    input: z.object({ flight: z.string() }),
    ...(options.readOnly ? { readOnly: true } : {}),
    async execute({ flight }, ctx: ToolContext) {
      seen.starts += 1;
      seen.keys.push(ctx.idempotencyKey);
      const answers: ElicitationResult[] = [];
      for (let i = 0; i < (options.questions ?? 1); i++) {
        const message = i === 0 ? `Where do you sit on ${flight}?` : `And on the way back (${i})?`;
        answers.push(await ctx.elicit({ message, schema: FORM }));
      }
      seen.results.push(...answers);
      if (answers.some((answer) => answer.action === "decline")) return `not booked: the traveller declined`;
      seen.booked.push(answers.map((answer) => (answer.action === "accept" ? answer.content : null)));
      return `booked ${flight}: ${JSON.stringify(answers)}`;
    },
  });
  return { tool, seen };
}

const script = () => [fauxToolCall("book", { flight: "XA12" }), fauxText("done")];

describe("ctx.elicit: a tool asks the person mid-call", () => {
  it("a live approver that answers: the answer (defaults filled in) comes back in the call", async () => {
    const asked: ApprovalRequest[] = [];
    const { tool, seen } = bookingTool();
    const { runner } = setup(script(), {
      approver: async (request) => {
        asked.push(request);
        return { decision: "answer", answer: { seat: "aisle" } };
      },
    });
    const result = await runner.runTask({ objective: "book XA12", tools: [tool] });
    expect(result.status).toBe("completed");
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({
      kind: "elicitation",
      toolCall: { name: "book" },
      elicitation: { message: "Where do you sit on XA12?", schema: FORM },
    });
    expect(seen.booked).toEqual([[{ seat: "aisle", bags: 0 }]]);
    expect(result.stats.humanReview.gates).toEqual([{ kind: "elicitation", waitMs: 0, decision: "answer" }]);
  });

  it("an approver's answer off the form reaches the tool as a typed error, never as an answer", async () => {
    const errors: unknown[] = [];
    const tool = defineTool({
      name: "book",
      description: "asks",
      input: z.object({ flight: z.string() }),
      async execute(_args, ctx) {
        try {
          return await ctx.elicit({ message: "Seat?", schema: FORM });
        } catch (error) {
          errors.push(error);
          throw error;
        }
      },
    });
    const { runner } = setup(script(), {
      approver: async () => ({ decision: "answer", answer: { seat: "middle" } }),
    });
    const result = await runner.runTask({ objective: "book", tools: [tool] });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(ElicitationError);
    expect(errors[0]).toMatchObject({ code: "answer_invalid" });
    expect(texts(result.messages)[2]).toContain("seat");
  });

  it("an approver that only approves cannot answer: the run parks on the question instead", async () => {
    const { tool, seen } = bookingTool();
    const { runner } = setup(script(), { approver: async () => ({ decision: "approve" }), parkKey: KEY });
    const result = await runner.runTask({ objective: "book XA12", tools: [tool] });
    expect(result.status).toBe("parked");
    expect(seen.booked).toEqual([]);
    expect(result.parked!.pending).toMatchObject({
      toolName: "book",
      kind: "elicitation",
      elicitation: { message: "Where do you sit on XA12?", schema: FORM },
    });
  });

  it("a tool's request outside the form subset is a typed error", async () => {
    const tool = defineTool({
      name: "book",
      description: "asks badly",
      input: z.object({ flight: z.string() }),
      execute: (_args, ctx) =>
        ctx.elicit({ message: "Seat?", schema: { type: "object", properties: { seat: { type: "object" } } } as never }),
    });
    const { runner } = setup(script(), { approver: async () => ({ decision: "decline" }) });
    const result = await runner.runTask({ objective: "book", tools: [tool] });
    expect(result.messages[2]).toMatchObject({ role: "toolResult", isError: true });
    expect(texts(result.messages)[2]).toContain("not a form a person can fill in");
  });

  it("a read-only call (it may run beside others) cannot park: unanswered, it is declined", async () => {
    const { tool, seen } = bookingTool({ readOnly: true });
    const { runner } = setup(script());
    const result = await runner.runTask({ objective: "book", tools: [tool] });
    expect(result.status).toBe("completed");
    expect(seen.results).toEqual([{ action: "decline" }]);
  });
});

describe("ctx.elicit with nobody to ask: the run parks, and resume answers", () => {
  async function parkedRun(questions = 1) {
    const { tool, seen } = bookingTool({ questions });
    const { runner } = setup(script(), { parkKey: KEY });
    const result = await runner.runTask({ objective: "book XA12", tools: [tool] });
    return { runner, tool, seen, result, parked: result.parked! };
  }

  it("parks signed with the question; the call is stopped, not in the history; the model never answers", async () => {
    const { seen, result, parked, runner } = await parkedRun();
    expect(result.status).toBe("parked");
    expect(result.terminal.code).toBe("awaiting_approval");
    expect(seen).toMatchObject({ starts: 1, booked: [] });
    expect(parked.pending).toMatchObject({ kind: "elicitation", elicitation: { schema: FORM } });
    expect(result.messages.filter((m) => m.role === "toolResult")).toEqual([]);
    // The question is signed: a park whose form was widened is refused.
    const tampered: ParkedRun = structuredClone(parked);
    tampered.pending.elicitation!.schema.properties.seat = { type: "string" };
    await expect(
      runner.resume(tampered, { decision: "answer", answer: { seat: "floor" } }, { tools: [] }),
    ).rejects.toMatchObject({ code: "bad_signature" });
  });

  it("answer: the call re-runs from its start with the same idempotency key and gets the answer at once", async () => {
    const { tool, seen, parked, runner } = await parkedRun();
    const resumed = await runner.resume(
      parked,
      { decision: "answer", answer: { seat: "window", bags: 2 } },
      {
        tools: [tool],
      },
    );
    expect(resumed.status).toBe("completed");
    expect(seen.starts).toBe(2);
    expect(new Set(seen.keys).size).toBe(1);
    expect(seen.booked).toEqual([[{ seat: "window", bags: 2 }]]);
    expect(resumed.stats.humanReview.gates.at(-1)).toMatchObject({ kind: "elicitation", decision: "answer" });
    // The park is consumed: resuming it again is refused.
    await expect(
      runner.resume(parked, { decision: "answer", answer: { seat: "window" } }, { tools: [tool] }),
    ).rejects.toMatchObject({ code: "replayed" });
  });

  it("decline: the call re-runs and its elicit returns the refusal", async () => {
    const { tool, seen, parked, runner } = await parkedRun();
    const resumed = await runner.resume(parked, { decision: "decline" }, { tools: [tool] });
    expect(resumed.status).toBe("completed");
    expect(seen.results).toEqual([{ action: "decline" }]);
    expect(texts(resumed.messages).join("\n")).toContain("the traveller declined");
  });

  it("an answer off the form, or a decision that does not fit, is refused typed, nothing claimed", async () => {
    const { tool, seen, parked, runner } = await parkedRun();
    const decisions: ResumeDecision[] = [
      { decision: "answer" as const, answer: { seat: "middle" } },
      { decision: "answer" as const, answer: { bags: 1 } },
      { decision: "answer" as const, answer: { seat: "aisle", meal: "veg" } },
      { decision: "approve" as const },
    ];
    for (const decision of decisions) {
      const error = await runner.resume(parked, decision, { tools: [tool] }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ElicitationError);
      expect((error as ElicitationError).code).toBe(
        decision.decision === "approve" ? "decision_mismatch" : "answer_invalid",
      );
    }
    expect(seen.starts).toBe(1);
    // Nothing was claimed: the right answer still resumes it.
    const resumed = await runner.resume(parked, { decision: "answer", answer: { seat: "aisle" } }, { tools: [tool] });
    expect(resumed.status).toBe("completed");
  });

  it("deny answers the call as denied without re-running it", async () => {
    const { tool, seen, parked, runner } = await parkedRun();
    const resumed = await runner.resume(parked, { decision: "deny", reason: "no trips" }, { tools: [tool] });
    expect(resumed.status).toBe("completed");
    expect(seen.starts).toBe(1);
    expect(texts(resumed.messages).join("\n")).toContain("no trips");
  });

  it("a second question parks again, carrying the first answer; the last resume replays both in order", async () => {
    const { tool, seen, parked, runner } = await parkedRun(2);
    const again = await runner.resume(parked, { decision: "answer", answer: { seat: "aisle" } }, { tools: [tool] });
    expect(again.status).toBe("parked");
    expect(again.parked!.pending.elicitation).toMatchObject({
      message: "And on the way back (1)?",
      answered: [{ message: "Where do you sit on XA12?", result: { action: "accept", content: { seat: "aisle" } } }],
    });
    const done = await runner.resume(
      again.parked!,
      { decision: "answer", answer: { seat: "window" } },
      {
        tools: [tool],
      },
    );
    expect(done.status).toBe("completed");
    expect(seen.starts).toBe(3);
    expect(seen.booked).toEqual([
      [
        { seat: "aisle", bags: 0 },
        { seat: "window", bags: 0 },
      ],
    ]);
  });

  it("an approved call that then asks parks again on its question; the answer finishes it, booked once", async () => {
    const { tool, seen } = bookingTool();
    const { runner } = setup(script(), { parkKey: KEY });
    const asked = await runner.runTask({ objective: "book", tools: [tool], permissions: { book: "ask" } });
    expect(asked.parked!.pending.kind).toBe("ask");
    const question = await runner.resume(asked.parked!, { decision: "approve" }, { tools: [tool] });
    expect(question.status).toBe("parked");
    expect(question.parked!.pending).toMatchObject({ kind: "elicitation", elicitation: { schema: FORM } });
    expect(question.messages.filter((m) => m.role === "toolResult")).toEqual([]);
    const done = await runner.resume(
      question.parked!,
      { decision: "answer", answer: { seat: "aisle" } },
      {
        tools: [tool],
      },
    );
    expect(done.status).toBe("completed");
    expect(seen).toMatchObject({ starts: 2, booked: [[{ seat: "aisle", bags: 0 }]] });
  });

  it("an approval park refuses an answer; a v1 park without the new fields still reads", async () => {
    const { tool } = bookingTool();
    const { runner } = setup([fauxToolCall("book", { flight: "X" }), fauxText("ok")], { parkKey: KEY });
    const result = await runner.runTask({ objective: "book", tools: [tool], permissions: { book: "ask" } });
    const error = await runner
      .resume(result.parked!, { decision: "answer", answer: { seat: "aisle" } }, { tools: [tool] })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "decision_mismatch" });
    expect(PARKED_RUN_VERSION).toBe(1);
    expect(ParkedRunSchema.safeParse(v1).success).toBe(true);
  });
});

describe("ctx.elicit inside a sub-run", () => {
  it("the question parks the whole tree as one signed value; resume answers it down where it waits", async () => {
    const { tool, seen } = bookingTool();
    const boss = [fauxToolCall("delegate", { task: "book XA12" }), fauxText("all booked")];
    const kid = [fauxToolCall("book", { flight: "XA12" }), fauxText("kid booked it")];
    const { runner } = treeSetup({ boss, kid }, { parkKey: KEY, parkLedger: createMemoryParkLedger() });
    const tools = [delegate([tool])];
    const parked = await runner.runTask({ objective: "book via a helper", tools });
    expect(parked.status).toBe("parked");
    const waiting = pendingApproval(parked.parked!);
    expect(waiting).toMatchObject({
      toolCall: { name: "book" },
      kind: "elicitation",
      elicitation: { message: "Where do you sit on XA12?" },
      path: [{ toolName: "delegate" }],
    });
    const done = await runner.resume(parked.parked!, { decision: "answer", answer: { seat: "window" } }, { tools });
    expect(done.status).toBe("completed");
    expect(done.output).toBe("all booked");
    expect(seen.booked).toEqual([[{ seat: "window", bags: 0 }]]);
  });
});
