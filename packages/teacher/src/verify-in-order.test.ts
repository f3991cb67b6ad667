import { fauxText } from "@x/brain-faux";
import { describe, expect, it } from "vitest";
import { numericAnswerChecks, runWithTeacher, secondOpinion, verifyInOrder } from "./index";
import { setup } from "../test/harness";

const u = (input: number, output: number) => ({ usage: { input, output } });
const task = "A robe takes 2 bolts of blue fiber and half that much white fiber. How many bolts in total does it take?";

describe("verifyInOrder: code first, a second opinion only where code cannot tell", () => {
  it("a flaw code can see fails the answer without asking the second model", async () => {
    const { runner, brain } = setup({
      student: [fauxText("2 + 1 = 4\n#### 4"), fauxText("\\boxed{3}")],
      takeover: [fauxText("2 + 1 = 3\n#### 3")],
    });
    const verify = verifyInOrder(numericAnswerChecks(), secondOpinion({ runner, model: "helper" }));
    const result = await runWithTeacher(runner, { objective: task }, { verify });
    // The student's wrong step is caught in code; the takeover's clean answer goes to the second model.
    expect(result.verdicts.map((v) => [v.of ?? "student", v.pass, v.reason])).toEqual([
      ["student", false, "the step 2 + 1 = 4 is wrong: it is 3"],
      ["takeover", true, undefined],
    ]);
    expect(brain.calls.map((c) => c.model.id)).toEqual(["student", "teacher", "helper"]);
    expect(result.status).toBe("completed");
  });

  it("where code cannot tell, the second model decides, and its cost is the verdict's", async () => {
    const { runner, brain } = setup({
      student: [fauxText("2 + 1 = 3\n#### 3", u(10, 10)), fauxText("\\boxed{3}", u(30, 10))],
    });
    const verify = verifyInOrder(numericAnswerChecks(), secondOpinion({ runner, model: "helper" }));
    const result = await runWithTeacher(runner, { objective: task }, { verify });
    expect(brain.calls.map((c) => c.model.id)).toEqual(["student", "helper"]);
    expect(result.verdicts).toEqual([{ run: 1, by: "code", pass: true, samples: 0, tokens: 40, costMicroUsd: 20 }]);
    expect(result.stats.costMicroUsd).toBe(40);
  });

  it("sums what every check spent; a throwing check is passed over and named", async () => {
    const verify = verifyInOrder(
      () => ({ reason: "no tests for this file", usage: { tokens: 5, costMicroUsd: 7, modelCalls: 1 } }),
      () => {
        throw new Error("linter crashed");
      },
      () => ({ pass: false, reason: "3 tests fail", usage: { tokens: 10, costMicroUsd: 3, modelCalls: 1 } }),
    );
    const input = { task, output: "x", run: 1, of: "student" as const, result: undefined as never };
    expect(await verify(input)).toEqual({
      pass: false,
      reason: "3 tests fail",
      usage: expect.objectContaining({ tokens: 15, costMicroUsd: 10, modelCalls: 2 }),
    });
    const undecided = verifyInOrder(
      () => undefined,
      () => {
        throw new Error("linter crashed");
      },
    );
    expect(await undecided(input)).toEqual({ reason: "check 2 threw: linter crashed" });
    expect(
      await verifyInOrder(
        () => undefined,
        () => true,
      )(input),
    ).toEqual({ pass: true });
    expect(await verifyInOrder(() => undefined)(input)).toBeUndefined();
  });
});
