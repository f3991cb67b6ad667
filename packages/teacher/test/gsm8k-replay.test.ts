import { describe, expect, it } from "vitest";
import { extractFinalNumber, loadGsm8k } from "../bench/gsm8k-data";
import { runSingle, runTeacherMode, uniform } from "../bench/gsm8k-replay";

// The first 60 questions: enough to hold both kinds of disagreement between the two models.
const items = loadGsm8k().slice(0, 60);
const flagged = items.map((i) => extractFinalNumber(i.studentResponse) !== i.reference);
// The seed's correction rounds and one-call takeover with advice, as before one-shot defaults existed.
const seedTakeover = { takeoverAfter: 0, takeoverBrief: "full", takeoverAdvice: true } as const;

describe("GSM8K replay through runWithTeacher", () => {
  it("single models reproduce the CSV's correctness", async () => {
    expect((await runSingle(items, "student")).correct).toBe(items.filter((i) => i.studentCorrect).length);
    expect((await runSingle(items, "teacher")).correct).toBe(items.filter((i) => i.teacherCorrect).length);
  });

  it(
    "the exact-answer check in code escalates where the student's final " +
      "number misses; each escalation costs exactly a bare GPT-4 answer",
    async () => {
      const student = await runSingle(items, "student");
      const teacher = await runSingle(items, "teacher");
      const tally = await runTeacherMode(items, { kind: "code" });
      expect(tally.perItem.map((p) => p.escalated)).toEqual(flagged);
      expect(tally.perItem.map((p) => p.correct)).toEqual(
        items.map((i, n) => (flagged[n] ? i.teacherCorrect : i.studentCorrect)),
      );
      // No helper call at all: the student side costs what the student alone costs.
      expect(tally.studentMicro).toBe(student.studentMicro);
      // One-shot defaults: one teacher call per escalation, the same request a bare call sends.
      expect(tally.teacherCalls).toBe(tally.escalated);
      expect(tally.spend.adviceMicro).toBe(0);
      const bare = teacher.perItem.reduce((sum, p, n) => sum + (flagged[n] ? p.micro : 0), 0);
      expect(tally.teacherMicro).toBe(bare);
    },
  );

  it("the same escalations with the full brief and the advice block cost more than a bare answer", async () => {
    const lean = await runTeacherMode(items, { kind: "code" });
    const briefed = await runTeacherMode(items, { kind: "code" }, seedTakeover);
    expect(briefed.perItem.map((p) => p.escalated)).toEqual(lean.perItem.map((p) => p.escalated));
    expect(briefed.correct).toBe(lean.correct);
    expect(briefed.teacherMicro).toBeGreaterThan(1.3 * lean.teacherMicro);
  });

  it("the exact-answer verifier as a helper call escalates the same questions, at the helper's price", async () => {
    const tally = await runTeacherMode(items, { kind: "exact" }, seedTakeover);
    expect(tally.perItem.map((p) => p.escalated)).toEqual(flagged);
    expect(tally.teacherCalls).toBe(tally.escalated);
    expect(tally.studentMicro).toBeGreaterThan((await runSingle(items, "student")).studentMicro);
  });

  it(
    "the seed's defaults on a multi-turn reading (oneShot: " +
      "false) ask for advice first, then the spend cap stops most",
    async () => {
      const tally = await runTeacherMode(items, { kind: "code" }, { oneShot: false });
      expect(tally.spend.adviceMicro).toBeGreaterThan(0);
      expect(tally.escalated).toBe(flagged.filter(Boolean).length);
      // The advice cannot change a replayed answer: only takeovers fix anything, and the cap refuses most.
      expect(tally.correct).toBeLessThan((await runTeacherMode(items, { kind: "code" })).correct);
    },
  );

  it("a perfect judge escalates exactly the student's misses and reaches the oracle", async () => {
    const tally = await runTeacherMode(items, { kind: "rubric", tpr: 1, fpr: 0, seed: 1 });
    expect(tally.perItem.map((p) => p.escalated)).toEqual(items.map((i) => !i.studentCorrect));
    expect(tally.correct).toBe(items.filter((i) => i.studentCorrect || i.teacherCorrect).length);
  });

  it("a judge that never flags escalates nothing; one that always flags escalates everything", async () => {
    expect((await runTeacherMode(items, { kind: "rubric", tpr: 0, fpr: 0, seed: 1 })).escalated).toBe(0);
    expect((await runTeacherMode(items, { kind: "rubric", tpr: 1, fpr: 1, seed: 1 })).escalated).toBe(items.length);
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
