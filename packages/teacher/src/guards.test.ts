import { describe, expect, it } from "vitest";
import { fauxText, fauxToolCall } from "@x/brain-faux";
import { checkGuards, teacherAllowance } from "./guards";
import { runWithTeacher } from "./run-with-teacher";
import { advice, fail, setup, toolRun } from "../test/harness";

const limits = { maxEscalations: 3, teacherSpendRatioCap: 0.4 };
const money = { teacherMicroUsd: 0, studentMicroUsd: 0 };

describe("checkGuards", () => {
  it("lets the first escalation through whatever the ratio", () => {
    expect(checkGuards({ escalations: 0, teacherTokens: 0, studentTokens: 0, ...money }, limits)).toBeUndefined();
  });
  it("refuses at maxEscalations", () => {
    expect(checkGuards({ escalations: 2, teacherTokens: 1, studentTokens: 100, ...money }, limits)).toBeUndefined();
    expect(checkGuards({ escalations: 3, teacherTokens: 1, studentTokens: 100, ...money }, limits)).toBe(
      "max_escalations",
    );
  });
  it("refuses once teacher tokens exceed the cap times student tokens", () => {
    expect(checkGuards({ escalations: 1, teacherTokens: 40, studentTokens: 100, ...money }, limits)).toBeUndefined();
    expect(checkGuards({ escalations: 1, teacherTokens: 41, studentTokens: 100, ...money }, limits)).toBe(
      "spend_ratio",
    );
  });
  it("teacherCostRatioCap compares micro-dollars, and is off unless set", () => {
    const spent = { escalations: 1, teacherTokens: 0, studentTokens: 100, teacherMicroUsd: 41, studentMicroUsd: 100 };
    expect(checkGuards(spent, limits)).toBeUndefined();
    expect(checkGuards(spent, { ...limits, teacherCostRatioCap: 0.41 })).toBeUndefined();
    expect(checkGuards(spent, { ...limits, teacherCostRatioCap: 0.4 })).toBe("cost_ratio");
    // The first escalation passes whatever the student spent: the teacher has spent nothing yet.
    expect(
      checkGuards({ ...spent, teacherMicroUsd: 0, studentMicroUsd: 0 }, { ...limits, teacherCostRatioCap: 0 }),
    ).toBeUndefined();
  });
  it("teacherMaxMicroUsd refuses once the cap is spent, and says what is left of it", () => {
    const spent = { escalations: 1, teacherTokens: 0, studentTokens: 100, teacherMicroUsd: 500, studentMicroUsd: 1 };
    expect(checkGuards(spent, { ...limits, teacherMaxMicroUsd: 501 })).toBeUndefined();
    expect(checkGuards(spent, { ...limits, teacherMaxMicroUsd: 500 })).toBe("cost_cap");
    expect(checkGuards({ ...spent, escalations: 0, teacherMicroUsd: 0 }, { ...limits, teacherMaxMicroUsd: 0 })).toBe(
      "cost_cap",
    );
    expect(teacherAllowance({ ...limits, teacherMaxMicroUsd: 800 }, 500)).toBe(300);
    expect(teacherAllowance({ ...limits, teacherMaxMicroUsd: 400 }, 500)).toBe(0);
    expect(teacherAllowance(limits, 500)).toBeUndefined();
  });
});

const u = (input: number, output: number) => ({ usage: { input, output } });

describe("the guards in a run", () => {
  it("helper tokens do not raise the teacher's allowance: more verifier votes buy the teacher no room", async () => {
    const escalationsWith = async (verifierSamples: number) => {
      const { runner } = setup(
        { student: [fauxText("a1", u(100, 100)), fauxText("a2", u(100, 100)), fauxText("a3", u(100, 100))] },
        {
          fallback: {
            verifier: fail("no", { input: 100, output: 100 }),
            teacher: advice({ correction: "c" }, { input: 100, output: 100 }),
          },
        },
      );
      const result = await runWithTeacher(runner, toolRun({ objective: "q" }), {
        verifierSamples,
        teacherSpendRatioCap: 0.6,
        takeoverAfter: 5,
      });
      return result.escalations.length;
    };
    // After one escalation the teacher has 200 tokens against the student's own 400 (0.5 ≤ 0.6): a second
    // one goes ahead; after it, 400 against 600 (0.67). Five votes' 1,000 helper tokens change nothing.
    expect(await escalationsWith(1)).toBe(2);
    expect(await escalationsWith(5)).toBe(2);
  });

  it("teacherCostRatioCap measures money: a teacher token at 10-30× the student's price counts as such", async () => {
    const run = async (teacherCostRatioCap?: number) => {
      const { runner } = setup(
        { student: [fauxText("a1", u(1000, 1000)), fauxText("a2", u(1000, 1000)), fauxText("a3", u(1000, 1000))] },
        { fallback: { verifier: fail(), teacher: advice({ correction: "c" }, { input: 50, output: 10 }) } },
      );
      const config = { takeoverAfter: 5, ...(teacherCostRatioCap !== undefined ? { teacherCostRatioCap } : {}) };
      return runWithTeacher(runner, toolRun({ objective: "q" }), config);
    };
    // Tokens: 60 teacher against 4,000 student (0.015, far under 0.4). Money: 50·10 + 10·30 = 800 µ$ against 4,000 µ$ =
    // 0.2.
    expect((await run()).escalations).toHaveLength(3);
    expect((await run(0.25)).escalations).toHaveLength(2);
    expect((await run(0.1)).escalations).toHaveLength(1);
  });

  it("teacherMaxMicroUsd refuses escalations once spent and runs a takeover on what is left", async () => {
    const { runner, calls } = setup({
      student: [fauxText("a1", u(10, 10))],
      verifier: [fail()],
      teacher: [advice({ correction: "hopeless", takeover: true }, { input: 100, output: 0 })],
      takeover: [fauxToolCall("read", { path: "a" }), fauxText("t")],
    });
    // The advice costs 100·10 = 1,000 µ$ of the 1,500 allowed; the takeover's first turn spends the rest.
    const result = await runWithTeacher(runner, toolRun({ objective: "q" }), { teacherMaxMicroUsd: 1500 });
    expect(calls("teacher")[0]).toBeDefined();
    expect(result.status).toBe("budget_exhausted");
    expect(calls("takeover")).toHaveLength(1);

    // An advice ask that spends the whole allowance leaves nothing for the takeover it asks for: refused.
    const spent = setup({
      student: [fauxText("a1", u(10, 10))],
      verifier: [fail()],
      teacher: [advice({ correction: "hopeless", takeover: true }, { input: 100, output: 0 })],
    });
    const kept = await runWithTeacher(spent.runner, toolRun({ objective: "q" }), { teacherMaxMicroUsd: 1000 });
    expect(spent.calls("takeover")).toHaveLength(0);
    expect(kept.output).toBe("a1");
    expect(kept.escalations.map((e) => e.tookOver)).toEqual([false]);

    const capped = setup({ student: [fauxText("a1")], verifier: [fail()] });
    const refused = await runWithTeacher(capped.runner, toolRun({ objective: "q" }), { teacherMaxMicroUsd: 0 });
    expect(refused.escalations).toEqual([]);
    expect(refused.output).toBe("a1");
  });
});

describe("cost guards on a tool run", () => {
  it("a takeover gets only what the student left of the host budget", async () => {
    for (const takeoverAfter of [0, 1]) {
      const { runner, calls } = setup({
        student: [fauxText("a1", u(300, 100)), fauxText("a2", u(300, 100))],
        verifier: [fail("no", { input: 50, output: 50 })],
        teacher: [advice({ correction: "c", takeover: true })],
        takeover: [fauxText("t")],
      });
      const result = await runWithTeacher(runner, toolRun({ objective: "q", budget: { tokens: 500 } }), {
        takeoverAfter,
      });
      // 400 student + 100 verifier tokens: nothing left, so the takeover ends before its first model call.
      expect(calls("takeover")).toHaveLength(0);
      expect(result.status).toBe("budget_exhausted");
      expect(result.escalations.map((e) => e.tookOver)).toEqual([true]);
    }
  });

  it("the spend cap is checked before a takeover too: a refused takeover leaves the student's answer", async () => {
    const { runner, calls } = setup({
      student: [fauxText("a1", u(100, 100)), fauxText("a2", u(100, 100))],
      verifier: [fail("no", { input: 10, output: 10 }), fail("no", { input: 10, output: 10 })],
      teacher: [advice({ correction: "c" }, { input: 100, output: 100 })],
      takeover: [fauxText("t")],
    });
    // After one correction the teacher has 200 tokens against the student's 440: over a 0.4 cap.
    const result = await runWithTeacher(runner, toolRun({ objective: "q" }), { takeoverAfter: 1 });
    expect(calls("takeover")).toHaveLength(0);
    expect(result.escalations.map((e) => e.tookOver)).toEqual([false]);
    expect(result.output).toBe("a2");
    const lifted = setup({
      student: [fauxText("a1", u(100, 100)), fauxText("a2", u(100, 100))],
      verifier: [fail(), fail()],
      teacher: [advice({ correction: "c" }, { input: 100, output: 100 })],
      takeover: [fauxText("t")],
    });
    const taken = await runWithTeacher(lifted.runner, toolRun({ objective: "q" }), {
      takeoverAfter: 1,
      teacherSpendRatioCap: 1,
    });
    expect(lifted.calls("takeover")).toHaveLength(1);
    expect(taken.output).toBe("t");
  });

  it("a host budget covers the whole task: each continuation gets only what is left", async () => {
    const { runner, calls } = setup({
      student: [fauxText("a1", u(300, 100)), fauxText("a2", u(300, 100))],
      verifier: [fail("no", { input: 50, output: 50 })],
      teacher: [advice({ correction: "c" })],
    });
    const result = await runWithTeacher(runner, toolRun({ objective: "q", budget: { tokens: 450 } }));
    // 400 student + 100 verifier tokens spent: nothing left, so the corrected run ends before calling the model.
    expect(result.status).toBe("budget_exhausted");
    expect(calls("student")).toHaveLength(1);
  });

  it("maxEscalations caps the escalations; the unresolved result comes back", async () => {
    const { runner, calls } = setup(
      { student: [fauxText("a1"), fauxText("a2")] },
      { fallback: { verifier: fail(), teacher: advice({ correction: "c" }) } },
    );
    const result = await runWithTeacher(runner, toolRun({ objective: "q" }), { maxEscalations: 1 });
    expect(calls("teacher")).toHaveLength(1);
    expect(result.escalations).toHaveLength(1);
    expect(result.output).toBe("a2");
    // The verifier rejected a2 and the guard kept the teacher away: unresolved, never `completed`.
    expect(result.status).toBe("failed");
    expect(result.terminal).toMatchObject({ code: "output_invalid", cause: "output" });
    expect(result.terminal.message).toMatch(/failed the host's verify .*not consulted \(max_escalations\)/);
    expect(result.strategies.stored).toBeUndefined();
  });

  it("teacherSpendRatioCap stops escalating once teacher tokens pass the cap × student tokens", async () => {
    const script = () => ({
      student: [fauxText("a1", u(100, 100)), fauxText("a2", u(100, 100)), fauxText("a3", u(100, 100))],
    });
    const fallback = {
      verifier: fail("no", { input: 10, output: 10 }),
      teacher: advice({ correction: "c" }, { input: 100, output: 100 }),
    };
    // After one escalation: teacher 200 tokens, student 2 × (200 + 20) = 440 — a ratio of 0.45.
    const capped = setup(script(), { fallback });
    const low = await runWithTeacher(capped.runner, toolRun({ objective: "q" }), { teacherSpendRatioCap: 0.4 });
    expect(low.escalations).toHaveLength(1);
    expect(low.teacherStats.tokens).toBe(200);
    expect(low.stats.tokens).toBe(440);

    const roomy = setup(script(), { fallback });
    const high = await runWithTeacher(roomy.runner, toolRun({ objective: "q" }), {
      teacherSpendRatioCap: 0.5,
      takeoverAfter: 5,
    });
    expect(high.escalations).toHaveLength(2);
  });
});
