import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { numericAnswerChecks, runWithTeacher, secondOpinion, verifyInOrder } from "../src/index";
import { loadGsm8k } from "../bench/gsm8k-data";
import { models, PRICES, replayRunner, runSingle, runTeacherMode } from "../bench/gsm8k-replay";
import { estimateTokens } from "../bench/replay-brain";
import { loadSecondOpinions, SECOND_MODELS } from "../bench/second-opinion-data";

const dir = resolve(import.meta.dirname, "..", "bench", "data", "re2-gsm8k");
const all = loadGsm8k();
const items = all.slice(0, 60);

describe("the recorded second opinions (bench/data/re2-gsm8k)", () => {
  it("ship with their source, commit, licence and conversion script", () => {
    expect(readFileSync(join(dir, "LICENSE"), "utf8")).toMatch(/Apache License\s+Version 2\.0/);
    const readme = readFileSync(join(dir, "README.md"), "utf8");
    expect(readme).toContain("https://github.com/Tebmer/Rereading-LLM-Reasoning");
    expect(readme).toContain("0dbad50be663c2ea8c46334c2f9a086980d3e318");
    expect(readme).toContain("re2-convert.ts");
  });

  it("hold one answer per GSM8K test question, lined up with the reference answers", () => {
    for (const model of SECOND_MODELS) {
      const answers = loadSecondOpinions(model);
      expect(answers.size).toBe(1319);
      const agree = all.filter((i) => answers.get(i.testIndex)!.answer === i.reference).length / all.length;
      // gpt-4o-mini is right on ~93 % of GSM8K, gpt-3.5-turbo on ~77 %: misaligned rows would agree on ~0 %.
      expect(agree).toBeGreaterThan(model === "gpt-4o-mini" ? 0.9 : 0.7);
    }
  });
});

describe("secondOpinion on the replay, through runWithTeacher", () => {
  const verify = (runner: Parameters<typeof secondOpinion>[0]["runner"]) =>
    secondOpinion({ runner, model: "gpt-4o-mini" });

  it("escalates where the student's final number and gpt-4o-mini's answer differ, billing every call", async () => {
    const answers = loadSecondOpinions("gpt-4o-mini");
    const tally = await runTeacherMode(items, { kind: "deployable", verify });
    const student = await runSingle(items, "student");
    const disagree = items.map((i) => {
      const own = /####\s*(-?[\d,.]+)/.exec(i.studentResponse)?.[1]?.replace(/,/g, "").replace(/\.$/, "");
      return own === undefined ? undefined : Number(own) !== Number(answers.get(i.testIndex)!.answer);
    });
    // Where the student wrote `#### n`, the escalation is exactly the disagreement.
    tally.perItem.forEach((p, n) => {
      if (disagree[n] !== undefined) expect(p.escalated).toBe(disagree[n]);
    });
    // The second model is billed once per question at its price: input = the bare question, output = the recording.
    const price = PRICES["gpt-4o-mini"];
    const expected = items.reduce((sum, i) => {
      const input = estimateTokens(`\n${i.question}`);
      return sum + Math.round(price.input * input) + Math.round(price.output * answers.get(i.testIndex)!.outputTokens);
    }, 0);
    expect(tally.spend.helperMicro).toBe(expected);
    expect(tally.studentMicro).toBe(student.studentMicro + expected);
    expect(models["gpt-4o-mini"]!.cost.output).toBe(0.6);
  });
});

describe("the shipped verifiers on recorded answers (Mixtral's text, the second models' recorded answers)", () => {
  const pick = (testIndex: number) => all.find((i) => i.testIndex === testIndex)!;
  // 949: Mixtral answers 26 with sound arithmetic (the reference is 42); 497: it answers 112, right;
  // 883: it answers 32.5 (wrong), and gpt-3.5-turbo's recorded reply holds no answer.
  const chosen = [pick(949), pick(497), pick(883)];
  const runner = replayRunner(chosen, { kind: "exact" });
  const judged = async (testIndex: number, model: "gpt-4o-mini" | "gpt-3.5-turbo") => {
    const item = pick(testIndex);
    const verify = verifyInOrder(numericAnswerChecks(), secondOpinion({ runner, model }));
    const spec = { model: "student", objective: item.question, maxTurns: 1 };
    return (await runWithTeacher(runner, spec, { verify, verifyOutput: false })).verdicts[0]!;
  };

  it("a clean wrong answer: code cannot tell, the second model's 42 fails it (billed)", async () => {
    const verdict = await judged(949, "gpt-4o-mini");
    expect(verdict).toMatchObject({ pass: false, reason: "a second model answers differently: \\boxed{42}" });
    expect(verdict.costMicroUsd).toBeGreaterThan(0);
  });

  it("a right answer passes: the second model's 112 agrees", async () => {
    expect(await judged(497, "gpt-4o-mini")).toMatchObject({ pass: true });
  });

  it("no recorded second answer: undefined — nobody can tell, and the wrong 32.5 stands", async () => {
    const verdict = await judged(883, "gpt-3.5-turbo");
    expect(verdict.pass).toBeUndefined();
    expect(verdict.reason).toBe("the two answers could not be compared");
  });
});
