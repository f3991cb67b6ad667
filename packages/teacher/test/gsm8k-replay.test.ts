import { describe, expect, it } from "vitest";
import { extractFinalNumber, loadGsm8k } from "../bench/gsm8k-data";
import { runSingle, runTeacherMode, uniform } from "../bench/gsm8k-replay";

// The first 60 questions: enough to hold both kinds of disagreement between the two models.
const items = loadGsm8k().slice(0, 60);

describe("GSM8K replay through runWithTeacher", () => {
  it("single models reproduce the CSV's correctness", async () => {
    expect((await runSingle(items, "student")).correct).toBe(items.filter((i) => i.studentCorrect).length);
    expect((await runSingle(items, "teacher")).correct).toBe(items.filter((i) => i.teacherCorrect).length);
  });

  it("the exact-answer verifier escalates where the student's final number misses the reference; the teacher's answer then stands", async () => {
    const tally = await runTeacherMode(items, { kind: "exact" }, 1);
    const flagged = items.map((i) => extractFinalNumber(i.studentResponse) !== i.reference);
    expect(tally.perItem.map((p) => p.escalated)).toEqual(flagged);
    expect(tally.perItem.map((p) => p.correct)).toEqual(
      items.map((i, n) => (flagged[n] ? i.teacherCorrect : i.studentCorrect)),
    );
    expect(tally.teacherMicro).toBeGreaterThan(0);
    // takeoverAfter 0: the takeover is decided before asking, so each escalation is one teacher call.
    expect(tally.teacherCalls).toBe(tally.escalated);
    expect(tally.spend.adviceMicro).toBe(0);
  });

  it("a perfect judge escalates exactly the student's misses and reaches the oracle", async () => {
    const tally = await runTeacherMode(items, { kind: "rubric", tpr: 1, fpr: 0, seed: 1 }, 1);
    expect(tally.perItem.map((p) => p.escalated)).toEqual(items.map((i) => !i.studentCorrect));
    expect(tally.correct).toBe(items.filter((i) => i.studentCorrect || i.teacherCorrect).length);
  });

  it("a judge that never flags escalates nothing; one that always flags escalates everything", async () => {
    expect((await runTeacherMode(items, { kind: "rubric", tpr: 0, fpr: 0, seed: 1 }, 1)).escalated).toBe(0);
    expect((await runTeacherMode(items, { kind: "rubric", tpr: 1, fpr: 1, seed: 1 }, 1)).escalated).toBe(items.length);
  });

  it("the judge's random draws are seeded and roughly uniform", () => {
    expect(uniform(7, 3, 0)).toBe(uniform(7, 3, 0));
    const draws = Array.from({ length: 2000 }, (_, i) => uniform(7, i, 0));
    const mean = draws.reduce((a, b) => a + b, 0) / draws.length;
    expect(mean).toBeGreaterThan(0.45);
    expect(mean).toBeLessThan(0.55);
    expect(draws.filter((d) => d < 0.1).length / draws.length).toBeGreaterThan(0.07);
  });
});
