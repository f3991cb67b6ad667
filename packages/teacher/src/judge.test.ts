import { fauxError, fauxText } from "@x/brain-faux";
import { describe, expect, it } from "vitest";
import { runWithTeacher, type VerifyInput } from "./index";
import { advice, fail, pass, setup, toolRun } from "../test/harness";

const u = (input: number, output: number) => ({ usage: { input, output } });

describe("verify: the host's check in code", () => {
  it("a decided verdict replaces the rubric call: zero tokens, and it is recorded as a verdict", async () => {
    const seen: VerifyInput[] = [];
    const { runner, calls } = setup({
      student: [fauxText("17", u(100, 10)), fauxText("18", u(100, 10))],
      teacher: [advice({ correction: "recount" })],
    });
    const result = await runWithTeacher(runner, toolRun({ objective: "16 - 3 - 4 eggs, $2 each?" }), {
      verify: (input) => {
        seen.push(input);
        return input.output === "18";
      },
    });
    expect(result.output).toBe("18");
    expect(calls("verifier")).toHaveLength(0);
    expect(seen.map((s) => [s.run, s.output, s.task])).toEqual([
      [1, "17", "16 - 3 - 4 eggs, $2 each?"],
      [2, "18", "16 - 3 - 4 eggs, $2 each?"],
    ]);
    expect(seen[0]!.result.status).toBe("completed");
    expect(result.verdicts).toEqual([
      { run: 1, by: "code", pass: false, samples: 0, tokens: 0, costMicroUsd: 0 },
      { run: 2, by: "code", pass: true, samples: 0, tokens: 0, costMicroUsd: 0 },
    ]);
    expect(result.escalations.map((e) => e.trigger)).toEqual(["verify-fail"]);
    // The student's stats are its two runs alone: no helper call was made.
    expect(result.stats.tokens).toBe(220);
  });

  it("an async check's reason reaches the escalation policy and the teacher", async () => {
    const reasons: Array<string | undefined> = [];
    const { runner, calls } = setup({
      student: [fauxText("a1"), fauxText("a2")],
      teacher: [advice({ correction: "c" })],
    });
    await runWithTeacher(runner, toolRun({ objective: "q" }), {
      verify: async ({ output }) => {
        await new Promise((resolve) => setTimeout(resolve, 1));
        return output === "a2" ? { pass: true } : { pass: false, reason: "2 of 14 tests fail: test_total, test_tax" };
      },
      escalationPolicy: (info) => {
        reasons.push(info.verifyReason);
        return true;
      },
    });
    expect(reasons).toEqual(["2 of 14 tests fail: test_total, test_tax"]);
    expect(JSON.stringify(calls("teacher")[0]!.context.messages)).toContain("test_total, test_tax");
  });

  it("undefined defers to the rubric (the check comes first); so do a throw or non-verdict, recorded", async () => {
    const { runner, calls } = setup({
      student: [fauxText("a1"), fauxText("a2"), fauxText("a3")],
      verifier: [fail("looks wrong", { input: 30, output: 5 }), fail(), pass()],
      teacher: [advice({ correction: "c1" }), advice({ correction: "c2" })],
    });
    let n = 0;
    const result = await runWithTeacher(runner, toolRun({ objective: "q" }), {
      teacherSpendRatioCap: 100,
      verify: () => {
        n++;
        if (n === 1) return undefined;
        if (n === 2) throw new Error("test runner crashed");
        return "yes" as unknown as boolean;
      },
    });
    expect(calls("verifier")).toHaveLength(3);
    expect(result.output).toBe("a3");
    expect(result.verdicts).toEqual([
      { run: 1, by: "code", samples: 0, tokens: 0, costMicroUsd: 0 },
      { run: 1, by: "rubric", pass: false, reason: "looks wrong", samples: 1, tokens: 35, costMicroUsd: 35 },
      { run: 2, by: "code", samples: 0, tokens: 0, costMicroUsd: 0, error: "test runner crashed" },
      expect.objectContaining({ run: 2, by: "rubric", pass: false }),
      {
        run: 3,
        by: "code",
        samples: 0,
        tokens: 0,
        costMicroUsd: 0,
        error: 'verify returned "yes", not a boolean, { pass?, reason?, usage? } or undefined',
      },
      expect.objectContaining({ run: 3, by: "rubric", pass: true }),
    ]);
  });

  it("runs with verifyOutput: false too — then it is the only check, and undefined lets the output stand", async () => {
    const a = setup({ student: [fauxText("a1")], teacher: [advice({ correction: "c" })] });
    const failed = await runWithTeacher(a.runner, toolRun({ objective: "q" }), {
      verifyOutput: false,
      maxEscalations: 1,
      verify: () => false,
    });
    expect(failed.escalations.map((e) => e.trigger)).toEqual(["verify-fail"]);
    // Without a reason from the host, the teacher is told the host's check rejected the answer.
    expect(JSON.stringify(a.calls("teacher")[0]!.context.messages)).toContain("the host's check rejected the answer");

    const b = setup({ student: [fauxText("a1")] });
    const stands = await runWithTeacher(b.runner, toolRun({ objective: "q" }), {
      verifyOutput: false,
      verify: () => undefined,
    });
    expect(stands.escalations).toEqual([]);
    expect(stands.verdicts).toEqual([{ run: 1, by: "code", samples: 0, tokens: 0, costMicroUsd: 0 }]);
    expect(b.calls("verifier")).toHaveLength(0);
  });

  it("is never asked about an output that did not complete", async () => {
    let asked = 0;
    const { runner } = setup({ student: [fauxError("auth", "bad key")] });
    const result = await runWithTeacher(runner, toolRun({ objective: "q" }), {
      maxEscalations: 0,
      verify: () => {
        asked++;
        return true;
      },
    });
    expect(result.status).toBe("failed");
    expect(asked).toBe(0);
    expect(result.verdicts).toEqual([]);
  });
});

describe("rubric verdicts in the records", () => {
  it("each rubric round is one verdict with its sample count and cost; no verify means no code verdict", async () => {
    const { runner } = setup({
      student: [fauxText("a1")],
      verifier: [pass({ input: 10, output: 2 }), fail("x", { input: 10, output: 2 }), pass({ input: 10, output: 2 })],
    });
    const result = await runWithTeacher(runner, toolRun({ objective: "q" }), { verifierSamples: 3 });
    expect(result.verdicts).toEqual([
      { run: 1, by: "rubric", pass: true, reason: "looks right", samples: 3, tokens: 36, costMicroUsd: 36 },
    ]);
  });
});

describe("a verify that calls a model reports its usage, and it is billed", () => {
  it("bare counts and a runner's stats both land in the verdict and in the student's stats", async () => {
    const { runner } = setup({
      student: [fauxText("a1", u(100, 10)), fauxText("a2", u(100, 10))],
      teacher: [advice({ correction: "recount" }, { input: 0, output: 0 })],
    });
    // The check itself runs a model through the runner (as secondOpinion does) and reports what it spent.
    const checker = setup({ student: [fauxText("a2", u(40, 8))] });
    const result = await runWithTeacher(runner, toolRun({ objective: "q" }), {
      verifyOutput: false,
      teacherSpendRatioCap: 100,
      verify: async ({ run, output }) => {
        if (run === 1)
          return { pass: false, reason: "second model disagrees", usage: { tokens: 50, costMicroUsd: 75 } };
        const second = await checker.runner.runTask({ objective: "q" });
        return { pass: second.output === output, usage: second.stats };
      },
    });
    expect(result.output).toBe("a2");
    expect(result.verdicts).toEqual([
      { run: 1, by: "code", pass: false, reason: "second model disagrees", samples: 0, tokens: 50, costMicroUsd: 75 },
      { run: 2, by: "code", pass: true, samples: 0, tokens: 48, costMicroUsd: 48 },
    ]);
    // Two student runs (220 tokens at $1/M) plus the two checks: 220 + 50 + 48 tokens, 220 + 75 + 48 µ$.
    expect(result.stats.tokens).toBe(318);
    expect(result.stats.costMicroUsd).toBe(343);
    expect(result.stats.modelCalls).toBe(3);
  });

  it("an object without pass is 'cannot tell' but billed; a malformed usage is no verdict", async () => {
    const { runner, calls } = setup({
      student: [fauxText("a1", u(20, 0))],
      verifier: [pass({ input: 10, output: 0 })],
    });
    const result = await runWithTeacher(runner, toolRun({ objective: "q" }), {
      verify: () => ({
        reason: "no number in the second answer",
        usage: { tokens: 7, costMicroUsd: 3, modelCalls: 1 },
      }),
    });
    expect(calls("verifier")).toHaveLength(1);
    expect(result.verdicts[0]).toEqual({
      run: 1,
      by: "code",
      reason: "no number in the second answer",
      samples: 0,
      tokens: 7,
      costMicroUsd: 3,
    });
    // The student (20) + the check (3) + the rubric it deferred to (10).
    expect(result.stats.costMicroUsd).toBe(33);
    const bad = setup({ student: [fauxText("a1")], verifier: [pass()] });
    const refused = await runWithTeacher(bad.runner, toolRun({ objective: "q" }), {
      verify: () => ({ pass: true, usage: { tokens: -1, costMicroUsd: 0 } }),
    });
    expect(refused.verdicts[0]!.error).toMatch(/not a boolean/);
  });
});
