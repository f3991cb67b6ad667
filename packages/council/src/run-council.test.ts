import { fauxDelay, fauxError, fauxText } from "@x/brain-faux";
import { defineTool } from "@x/runner";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { runCouncil } from "./run-council";
import { councilSetup, finding, reviewers, TASK } from "../test/harness";

const OFF_BY_ONE = finding("src/sum.ts", 3, "off-by-one: i <= xs.length reads past the end", 0.8);
const WRONG = finding("src/sum.ts", 2, "t shadows a global total", 0.7, "low");

describe("runCouncil on scripted reviewers", () => {
  it("merges one finding from three reviewers, scores it by support, says who found it and what it cost", async () => {
    const { runner, calls } = councilSetup({
      ana: { findings: [OFF_BY_ONE] },
      bo: { findings: [finding("./src/sum.ts", 3, "loop bound <= goes one past the array", 0.6)] },
      cy: { findings: [finding("src/sum.ts", 3, "reads xs[xs.length], which is undefined", 0.5)] },
    });
    const result = await runCouncil(runner, TASK, { reviewers: reviewers() });
    expect(result.status).toBe("completed");
    // Everyone found it: nothing to argue about, so no critique round was paid for.
    expect(result.stoppedBecause).toBe("agreement");
    expect(result.rounds).toBe(0);
    expect(calls("ana")).toHaveLength(1);
    expect(result.findings).toHaveLength(1);
    const [top] = result.findings;
    expect(top).toMatchObject({ id: "F1", foundBy: ["ana", "bo", "cy"], merged: 3, claim: OFF_BY_ONE.claim });
    expect(top!.confidence).toBeCloseTo(1 - 0.2 * 0.4 * 0.5, 6);
    expect(top!.score).toBe(96);
    expect(result.stats.tasks).toBe(4);
    const spent = result.reviewers.reduce((sum, r) => sum + r.tokens, 0);
    expect(result.stats.tokens).toBe(spent);
    expect(result.reviewers.map((r) => [r.name, r.status, r.findings, r.runs])).toEqual([
      ["ana", "completed", 1, 1],
      ["bo", "completed", 1, 1],
      ["cy", "completed", 1, 1],
    ]);
  });

  it("critique: a wrong finding others dispute falls under the threshold; a confirmed one is reported", async () => {
    const { runner, calls } = councilSetup({
      ana: { findings: [OFF_BY_ONE, WRONG] },
      bo: { findings: [], verdicts: { shadows: "dispute" } },
      cy: { findings: [], verdicts: { shadows: "dispute" } },
    });
    const result = await runCouncil(runner, TASK, { reviewers: reviewers() });
    expect(result.rounds).toBe(1);
    expect(result.findings.map((f) => f.claim)).toEqual([OFF_BY_ONE.claim]);
    expect(result.findings[0]).toMatchObject({ foundBy: ["ana"], confirmedBy: ["bo", "cy"], disputedBy: [] });
    const wrong = result.belowThreshold.find((f) => f.claim === WRONG.claim)!;
    expect(wrong.disputedBy.map((d) => d.reviewer)).toEqual(["bo", "cy"]);
    expect(wrong.score).toBeLessThan(60);
    // The finder is not asked about its own findings; the others each saw both.
    expect(calls("ana")).toHaveLength(1);
    expect(calls("bo")).toHaveLength(2);
    // One rebuttal round is not run when maxRounds is 1, even though F2 is contested.
    expect(result.stoppedBecause).toBe("round_cap");
  });

  it("the threshold decides what is reported", async () => {
    const { runner } = councilSetup({ ana: { findings: [finding("src/sum.ts", 3, "maybe an off-by-one", 0.55)] } });
    const low = await runCouncil(runner, TASK, { reviewers: reviewers(["ana"]), threshold: 60 });
    expect(low.findings).toEqual([]);
    expect(low.belowThreshold.map((f) => f.score)).toEqual([55]);
    const { runner: again } = councilSetup({
      ana: { findings: [finding("src/sum.ts", 3, "maybe an off-by-one", 0.55)] },
    });
    const lenient = await runCouncil(again, TASK, { reviewers: reviewers(["ana"]), threshold: 50 });
    expect(lenient.findings.map((f) => f.score)).toEqual([55]);
  });

  it("a critic's duplicate call joins two findings the matcher kept apart", async () => {
    const { runner } = councilSetup({
      ana: { findings: [finding("src/sum.ts", 3, "loop overruns the array", 0.7)] },
      bo: { findings: [finding("src/sum.ts", 5, "sum returns NaN for every input", 0.6)], verdicts: {} },
      cy: { findings: [], verdicts: { NaN: { duplicateOfClaim: "overruns" } } },
    });
    const result = await runCouncil(runner, TASK, { reviewers: reviewers() });
    const all = [...result.findings, ...result.belowThreshold];
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ id: "F1", merged: 2, foundBy: ["ana", "bo"] });
  });

  it("the round cap: 0 rounds make no critique call; 2 rounds re-ask on contested findings only", async () => {
    const none = councilSetup({ ana: { findings: [WRONG] }, bo: { verdicts: { shadows: "dispute" } } });
    const zero = await runCouncil(none.runner, TASK, { reviewers: reviewers(["ana", "bo"]), maxRounds: 0 });
    expect(zero.rounds).toBe(0);
    expect(none.calls("bo")).toHaveLength(1);
    expect(zero.stoppedBecause).toBe("round_cap");

    const two = councilSetup({
      ana: { findings: [WRONG, OFF_BY_ONE] },
      bo: { verdicts: { shadows: "dispute" } },
      cy: { verdicts: {} },
    });
    const result = await runCouncil(two.runner, TASK, { reviewers: reviewers(), maxRounds: 2 });
    expect(result.rounds).toBe(2);
    expect(result.stoppedBecause).toBe("round_cap");
    // Round 2 shows only the contested finding, with what was said about it.
    const rebuttal = JSON.stringify(two.calls("cy")[2]!.context.messages);
    expect(rebuttal).toContain("shadows");
    expect(rebuttal).not.toContain("off-by-one");
    expect(rebuttal).toContain("said so far");
  });

  it("in a rebuttal round a finder may withdraw its own finding: it no longer backs it", async () => {
    const { runner, calls } = councilSetup({
      ana: { findings: [WRONG], verdicts: { shadows: "dispute" } },
      bo: { verdicts: { shadows: "dispute" } },
      cy: { verdicts: {} },
    });
    const result = await runCouncil(runner, TASK, { reviewers: reviewers(), maxRounds: 2 });
    // Round 1: bo disputes, cy confirms — contested, so round 2 asks everyone, the finder too.
    expect(calls("ana")).toHaveLength(2);
    const [wrong] = result.belowThreshold;
    expect(wrong).toMatchObject({ foundBy: ["ana"], confirmedBy: ["cy"] });
    expect(wrong!.disputedBy.map((d) => d.reviewer)).toEqual(["ana", "bo"]);
    // Backed by cy's confirmation alone (0.6) against two disputes: a third of it.
    expect(wrong!.score).toBe(20);
    expect(result.findings).toEqual([]);
  });

  it("the host's signal aborts every reviewer at once; no critique round follows", async () => {
    const slow = { reply: () => fauxDelay(30_000, fauxText('{"findings": []}')) };
    const { runner, calls } = councilSetup({ ana: slow, bo: slow, cy: slow });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const result = await runCouncil(runner, TASK, { reviewers: reviewers(), signal: controller.signal });
    expect(result).toMatchObject({ status: "aborted", stoppedBecause: "aborted", rounds: 0, findings: [] });
    expect(result.reviewers.map((r) => r.status)).toEqual(["aborted", "aborted", "aborted"]);
    expect(calls("ana").length + calls("bo").length + calls("cy").length).toBe(3);
  });

  it("stops early when a round leaves nothing contested", async () => {
    const { runner, calls } = councilSetup({ ana: { findings: [OFF_BY_ONE] }, bo: {}, cy: {} });
    const result = await runCouncil(runner, TASK, { reviewers: reviewers(), maxRounds: 3 });
    expect(result.stoppedBecause).toBe("agreement");
    expect(result.rounds).toBe(1);
    expect(calls("bo")).toHaveLength(2);
  });

  it("a reviewer that fails or times out is reported; the others' findings still count", async () => {
    const { runner } = councilSetup(
      {
        ana: { findings: [OFF_BY_ONE] },
        bo: { reply: () => fauxError("auth", "bad key") },
        cy: { reply: () => fauxDelay(60_000, fauxText("{}")) },
      },
      { retry: { maxRetries: 0 } },
    );
    const result = await runCouncil(runner, TASK, { reviewers: reviewers(), reviewerTimeoutMs: 200 });
    expect(result.status).toBe("completed");
    expect(result.reviewers.map((r) => [r.name, r.status])).toEqual([
      ["ana", "completed"],
      ["bo", "failed"],
      ["cy", "timeout"],
    ]);
    expect(result.findings.map((f) => f.foundBy)).toEqual([["ana"]]);
    expect(result.stoppedBecause).toBe("agreement");
  });

  it("no reviewer with a review: status failed", async () => {
    const { runner } = councilSetup({ ana: { reply: () => fauxText("not json") } });
    const result = await runCouncil(runner, TASK, { reviewers: reviewers(["ana"]) });
    expect(result.status).toBe("failed");
    expect(result.stoppedBecause).toBe("all_failed");
    expect(result.reviewers[0]).toMatchObject({ status: "failed", code: "output_invalid" });
  });

  it("the council's budget is a hard stop across reviewers: no critique round it cannot pay for starts", async () => {
    const script = { ana: { findings: [OFF_BY_ONE, WRONG] }, bo: { verdicts: {} }, cy: { verdicts: {} } };
    const reviewsOnly = await runCouncil(councilSetup(script).runner, TASK, { reviewers: reviewers(), maxRounds: 0 });
    const spentOnReviews = reviewsOnly.stats.tokens;
    const unbounded = await runCouncil(councilSetup(script).runner, TASK, { reviewers: reviewers() });
    expect(unbounded.rounds).toBe(1);
    expect(unbounded.stats.tokens).toBeGreaterThan(spentOnReviews + 100);

    // Room for the three reviews and less than the round after them: the round is not started.
    const { runner, calls } = councilSetup(script);
    const tight = await runCouncil(runner, TASK, { reviewers: reviewers(), budget: { tokens: spentOnReviews + 100 } });
    expect(tight).toMatchObject({ status: "partial", stoppedBecause: "budget", rounds: 0 });
    expect(tight.stats.tokens).toBe(spentOnReviews);
    expect(calls("bo")).toHaveLength(1);
    // What the reviews found is still scored and reported, unchallenged, as with no critique round.
    expect(tight.findings).toEqual(reviewsOnly.findings);
    expect(tight.findings).toHaveLength(2);
  });

  it("a budget the parallel reviews already pass: every later call is refused, the council ends partial", async () => {
    const { runner, calls } = councilSetup({ ana: { findings: [OFF_BY_ONE] }, bo: {}, cy: {} });
    const result = await runCouncil(runner, TASK, { reviewers: reviewers(), budget: { tokens: 100 } });
    expect(result).toMatchObject({ status: "partial", stoppedBecause: "budget", rounds: 0 });
    // The three reviews were admitted at once, while the tree was under budget; nothing after them.
    expect(calls("ana").length + calls("bo").length + calls("cy").length).toBe(3);
  });

  it("reviewers are sub-runs: the council's permissions are their floor", async () => {
    const ran: string[] = [];
    const runTests = defineTool({
      name: "run_tests",
      description: "runs the test suite",
      input: z.object({ filter: z.string() }),
      permission: "allow",
      execute: ({ filter }) => (ran.push(filter), "1 failed"),
    });
    const { runner } = councilSetup({
      ana: {
        reply: ({ callIndex }) =>
          callIndex === 0
            ? { content: [{ type: "toolCall", name: "run_tests", arguments: { filter: "sum" } }] }
            : fauxText('{"findings": []}'),
      },
    });
    const result = await runCouncil(runner, TASK, {
      reviewers: [{ name: "ana", model: "ana", tools: [runTests] }],
      defaultPermission: "ask",
    });
    expect(ran).toEqual([]);
    expect(result.reviewers[0]).toMatchObject({ status: "parked" });
  });

  it("refuses a config that cannot work, before any call", async () => {
    const { runner, calls } = councilSetup({});
    await expect(runCouncil(runner, TASK, { reviewers: [] })).rejects.toMatchObject({ code: "council_config_invalid" });
    await expect(runCouncil(runner, TASK, { reviewers: reviewers(["ana", "ana"]) })).rejects.toThrow(/two reviewers/);
    await expect(runCouncil(runner, TASK, { reviewers: reviewers(), maxRounds: 9 })).rejects.toThrow(/maxRounds/);
    expect(calls("ana")).toHaveLength(0);
  });
});
