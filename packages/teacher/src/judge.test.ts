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
        error: 'verify returned "yes", not a boolean, { pass, reason? } or undefined',
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
