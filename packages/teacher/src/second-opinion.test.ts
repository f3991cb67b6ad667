import { fauxText } from "@x/brain-faux";
import { MemoryStrategyStore } from "@x/strategy-store-memory";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { runWithTeacher, sameNumber, sameParsed, sameText, secondOpinion, TeacherError } from "./index";
import { setup } from "../test/harness";

const u = (input: number, output: number) => ({ usage: { input, output } });
const task = "Janet's ducks lay 16 eggs a day. She eats 3 and bakes with 4. She sells the rest at $2. How much?";

describe("secondOpinion: a cheap second model answers the bare task; final answers are compared", () => {
  it("agreement passes, and the second model's call is billed in stats and in the verdict", async () => {
    // The student's queue serves both the student and the second model (the helper), in call order.
    const { runner, brain } = setup({ student: [fauxText("16 - 3 - 4 = 9, 9 * 2 = 18\n#### 18", u(50, 20))] });
    const second = setup({ student: [fauxText("She makes \\boxed{18} dollars.", u(30, 10))] }, {});
    const verify = secondOpinion({ runner: second.runner, model: "helper" });
    const result = await runWithTeacher(runner, { objective: task }, { verify });
    expect(result.status).toBe("completed");
    const [asked] = second.brain.calls;
    expect(asked!.model.id).toBe("helper");
    expect(asked!.context.systemPrompt).toBeUndefined();
    expect(asked!.context.messages).toEqual([expect.objectContaining({ role: "user", content: task })]);
    // The helper costs $0.5/M: 40 tokens → 20 µ$; the student 70 tokens at $1/M.
    expect(result.verdicts).toEqual([{ run: 1, by: "code", pass: true, samples: 0, tokens: 40, costMicroUsd: 20 }]);
    expect(result.stats.tokens).toBe(110);
    expect(result.stats.costMicroUsd).toBe(90);
    expect(brain.calls).toHaveLength(1);
  });

  it("disagreement escalates; the takeover is compared with the same second answer, asked once", async () => {
    const store = new MemoryStrategyStore();
    const { runner, calls } = setup(
      {
        student: [fauxText("#### 26"), fauxText("The answer is 18.", u(30, 10))],
        takeover: [
          fauxText(
            "#### 18\n```json\n" +
              '{"strategy": "Subtract what she uses first.", "takeover": true, "confidence": 3}\n```',
          ),
        ],
      },
      { roles: { default: "student", advisor: "teacher", helper: "helper" } },
    );
    const verify = secondOpinion({ runner, role: "helper" });
    const result = await runWithTeacher(runner, { objective: task }, { verify, strategyStore: store, scope: "t" });
    expect(result.output).toBe("#### 18");
    expect(result.status).toBe("completed");
    expect(calls("student").map((c) => c.model.id)).toEqual(["student", "helper"]);
    expect(result.verdicts).toEqual([
      {
        run: 1,
        by: "code",
        pass: false,
        reason: "a second model answers differently: The answer is 18.",
        samples: 0,
        tokens: 40,
        costMicroUsd: 20,
      },
      // Reused: no second call, nothing more billed.
      { run: 1, of: "takeover", by: "code", pass: true, samples: 0, tokens: 0, costMicroUsd: 0 },
    ]);
    expect(result.strategies.stored?.strategy).toBe("Subtract what she uses first.");
  });

  it("a second answer with no number cannot be compared: undefined, still billed", async () => {
    const { runner } = setup({ student: [fauxText("#### 18"), fauxText("I am not sure.", u(10, 10))] });
    const verify = secondOpinion({ runner, model: "helper" });
    const result = await runWithTeacher(runner, { objective: task }, { verify, verifyOutput: false });
    expect(result.escalations).toEqual([]);
    expect(result.verdicts).toEqual([
      {
        run: 1,
        by: "code",
        reason: "the two answers could not be compared",
        samples: 0,
        tokens: 20,
        costMicroUsd: 10,
      },
    ]);
  });

  it("a second model that fails is asked again next time, and says why it could not tell", async () => {
    const { runner, brain } = setup({ student: [] }, { fallback: { student: fauxText("") } });
    const verify = secondOpinion({ runner, model: "helper", systemPrompt: "Answer with a number." });
    for (const round of [1, 2]) {
      const verdict = await verify({ task, output: "#### 18" });
      expect(verdict).toEqual({
        reason: "the second model gave no answer (max_turns)",
        usage: expect.objectContaining({ modelCalls: 1 }),
      });
      expect(brain.calls).toHaveLength(round);
    }
    expect(brain.calls[0]!.context.systemPrompt).toBe("Answer with a number.");
  });

  it("needs exactly one of model and role", () => {
    const { runner } = setup();
    expect(() => secondOpinion({ runner })).toThrow(TeacherError);
    expect(() => secondOpinion({ runner, model: "helper", role: "helper" })).toThrow(TeacherError);
  });
});

describe("answer comparisons a host can swap in", () => {
  it("sameNumber reads #### n, \\boxed{n}, 'the answer is n' and the last line's number", () => {
    expect(sameNumber("so #### 1,200", "\\boxed{1200}")).toBe(true);
    expect(sameNumber("The answer is $18.00.", "x = 4\n18 dollars")).toBe(true);
    expect(sameNumber("#### 17", "#### 18")).toBe(false);
    expect(sameNumber("#### 17", "no idea")).toBeUndefined();
  });

  it("sameText compares whole answers, whitespace aside", () => {
    expect(sameText(" Paris\n", "Paris")).toBe(true);
    expect(sameText("Paris", "paris")).toBe(false);
    expect(sameText("", "Paris")).toBeUndefined();
  });

  it("sameParsed compares the first JSON value a zod schema accepts", () => {
    const compare = sameParsed(z.object({ city: z.string(), days: z.number() }));
    expect(compare('Plan: {"city": "Oslo", "days": 3}', '```json\n{"days": 3, "city": "Oslo"}\n```')).toBe(true);
    expect(compare('{"city": "Oslo", "days": 3}', '{"city": "Oslo", "days": 4}')).toBe(false);
    expect(compare('{"city": "Oslo"}', '{"city": "Oslo", "days": 4}')).toBeUndefined();
  });
});
